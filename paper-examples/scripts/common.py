"""Shared helpers for the expected-output scripts of paper-examples/.

Nothing here calls tailfcl: the expected outputs are computed from the papers' definitions with
plain Python (standard library only), so they are an independent check of the oracle and the
compiler.

* TAIL values are printed as apltail prints them (docs/tail.md section 6): `[shape](elems)`,
  rank-2 arrays in matrix layout, doubles with at most 12 significant digits.
* FCL output is what forceAndPrint / forceAndPrintDouble write (docs/fcl.md section 4.4).
* `Arr` is a tiny model of TAIL's rank-polymorphic arrays, with apltail's operator meanings
  (spec section 5), enough for the examples.
"""

import math
import os
import sys

# ---------------------------------------------------------------------------------------------
# TAIL printing (docs/tail.md section 6)


def g_text(x):
    """Poly/ML Real.toString of a finite x >= 0 (spec 6.1, the base string G(x))."""
    if x == 0:
        return "0.0"
    mant, exp = ("%.11e" % x).split("e")
    e = int(exp)
    digits = mant.replace(".", "").rstrip("0") or "0"
    n = len(digits)
    if e < -6 or e >= 12:
        text = digits[0]
        if n > 1:
            text += "." + digits[1:]
        return text + "E" + ("~" if e < 0 else "") + str(abs(e))
    if e >= n - 1:
        return digits + "0" * (e + 1 - n) + ".0"
    if e < 0:
        return "0." + "0" * (-e - 1) + digits
    return digits[: e + 1] + "." + digits[e + 1 :]


def double_text(x):
    """The value text of a double (spec 6.1)."""
    if math.isnan(x):
        return "nan.0"
    if x == math.inf:
        return "HUGE_VAL"
    if x == -math.inf:
        return "-HUGE_VAL"
    if x == 0 and math.copysign(1.0, x) < 0:
        return "~0.0"
    if x < 0:
        return "-" + double_text(-x)
    g = g_text(x)
    return g if "." in g else g + ".0"


def elem_text(v, kind):
    if kind == "double":
        return double_text(v)
    if kind == "bool":
        return "1" if v else "0"
    return str(v)


class Arr:
    """A TAIL array value: a shape, row-major elements and an element kind (int/double/bool)."""

    def __init__(self, shape, data, kind="int"):
        self.shape = list(shape)
        self.data = list(data)
        self.kind = kind
        assert len(self.data) == prod(self.shape), (shape, len(data))

    def __repr__(self):
        return layout(self)

    def fill(self):
        return 0.0 if self.kind == "double" else (False if self.kind == "bool" else 0)


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def layout(a):
    """The array layout of spec 6.2 (without the trailing newline that pr* adds)."""
    texts = [elem_text(v, a.kind) for v in a.data]
    if len(a.shape) == 2 and a.data:
        w = max(len(t) for t in texts)
        rows, cols = a.shape
        lines = [
            " " + " ".join(t.rjust(w) for t in texts[r * cols : (r + 1) * cols]) for r in range(rows)
        ]
        return "\n" + "\n".join(lines) + "\n"
    return "[" + ",".join(str(s) for s in a.shape) + "](" + ",".join(texts) + ")"


def pr(a):
    """What prArrI/prArrD/prArrB/prSclI/... write for a (always one more newline)."""
    return layout(a) + "\n"


def scalar(v, kind="int"):
    return Arr([], [v], kind)


def vec(xs, kind="int"):
    return Arr([len(xs)], xs, kind)


def result_line(a):
    """The final line of a TAIL run (spec 6.5)."""
    return layout(a) + "\n"


# ---------------------------------------------------------------------------------------------
# TAIL operators (docs/tail.md section 5; apltail's meanings)


def iota(n):
    if n < 0:
        raise ValueError("iota of a negative number")
    return vec(list(range(1, n + 1)))


def reshape(shape, a):
    m = prod(shape)
    n = len(a.data)
    data = [a.data[i % n] for i in range(m)] if n else [a.fill()] * m
    return Arr(shape, data, a.kind)


def to_idx(shape, i):
    idx = []
    for s in reversed(shape):
        idx.append(i % s)
        i //= s
    return list(reversed(idx))


def from_idx(shape, idx):
    i = 0
    for s, k in zip(shape, idx):
        i = i * s + k
    return i


def transp(a):
    rs = list(reversed(a.shape))
    data = [a.data[from_idx(a.shape, list(reversed(to_idx(rs, i))))] for i in range(prod(rs))]
    return Arr(rs, data, a.kind)


def transp2(p, a):
    """APL dyadic transpose, 1-based: axis i of a becomes axis p[i] of the result."""
    r = len(a.shape)
    assert sorted(p) == list(range(1, r + 1))
    rs = [0] * r
    for i in range(r):
        rs[p[i] - 1] = a.shape[i]
    data = []
    for j in range(prod(rs)):
        jdx = to_idx(rs, j)
        data.append(a.data[from_idx(a.shape, [jdx[p[i] - 1] for i in range(r)])])
    return Arr(rs, data, a.kind)


def row_size(a):
    return prod(a.shape[1:])


def take(n, a):
    if not a.shape:
        a = vec(a.data, a.kind)
    q = row_size(a)
    shape = [abs(n)] + a.shape[1:]
    m = prod(shape)
    big = len(a.data)
    if n >= 0:
        data = [a.data[i] if i < big else a.fill() for i in range(m)]
    else:
        o = m - big
        data = [a.data[i - o] if i >= o else a.fill() for i in range(m)]
    assert len(data) == abs(n) * q
    return Arr(shape, data, a.kind)


def drop(n, a):
    if not a.shape:
        return a
    q = row_size(a)
    rows = max(0, a.shape[0] - abs(n))
    start = n * q if n >= 0 else 0
    return Arr([rows] + a.shape[1:], a.data[start : start + rows * q], a.kind)


def vreverse(a):
    if not a.shape:
        return a
    q = row_size(a)
    rows = [a.data[r * q : (r + 1) * q] for r in range(a.shape[0])]
    return Arr(a.shape, [x for row in reversed(rows) for x in row], a.kind)


def rotate(n, a):
    """Last axis, left by n (floored modulo)."""
    if not a.shape or a.shape[-1] == 0:
        return a
    m = a.shape[-1]
    k = n % m
    data = []
    for r in range(len(a.data) // m):
        row = a.data[r * m : (r + 1) * m]
        data += [row[(j + k) % m] for j in range(m)]
    return Arr(a.shape, data, a.kind)


def vrotate(n, a):
    if not a.shape or a.shape[0] == 0:
        return a
    q = row_size(a)
    s0 = a.shape[0]
    k = n % s0
    rows = [a.data[r * q : (r + 1) * q] for r in range(s0)]
    return Arr(a.shape, [x for j in range(s0) for x in rows[(j + k) % s0]], a.kind)


def cat(a, b):
    if not a.shape:
        a = vec(a.data, a.kind)
    if not b.shape:
        b = vec(b.data, b.kind)
    assert a.shape[:-1] == b.shape[:-1]
    ma, mb = a.shape[-1], b.shape[-1]
    rows = len(a.data) // ma if ma else prod(a.shape[:-1])
    data = []
    for r in range(rows):
        data += a.data[r * ma : (r + 1) * ma] + b.data[r * mb : (r + 1) * mb]
    return Arr(a.shape[:-1] + [ma + mb], data, a.kind)


def cons(x, a):
    return cat(Arr(x.shape + [1], x.data, x.kind), a)


def snoc(a, x):
    return cat(a, Arr(x.shape + [1], x.data, x.kind))


def first(a):
    return scalar(a.data[0] if a.data else a.fill(), a.kind)


def each(f, a, kind=None):
    return Arr(a.shape, [f(x) for x in a.data], kind or a.kind)


def zipwith(f, a, b, kind=None):
    if a.shape != b.shape:
        raise ValueError("zipWith: shapes differ")
    return Arr(a.shape, [f(x, y) for x, y in zip(a.data, b.data)], kind or a.kind)


def reduce(f, z, a):
    """apltail's reduce (spec 5.9): acc := x0; acc := f(x_j)(acc)."""
    if not a.shape:
        return a
    if a.shape == [0]:
        return scalar(z, a.kind)
    m = a.shape[-1]
    out = []
    for r in range(prod(a.shape[:-1])):
        row = a.data[r * m : (r + 1) * m]
        acc = row[0]
        for x in row[1:]:
            acc = f(x, acc)
        out.append(acc)
    return Arr(a.shape[:-1], out, a.kind)


def scan(f, a):
    m = a.shape[-1]
    out = []
    for r in range(len(a.data) // m if m else 0):
        row = a.data[r * m : (r + 1) * m]
        acc = row[0]
        out.append(acc)
        for x in row[1:]:
            acc = f(x, acc)
            out.append(acc)
    return Arr(a.shape, out, a.kind)


def idxs(d, i, a):
    """idxS(d, i, a): the 1-based slice i along the 1-based axis d."""
    r = len(a.shape)
    assert 1 <= d <= r and 1 <= i <= a.shape[d - 1]
    rs = a.shape[: d - 1] + a.shape[d:]
    data = []
    for j in range(prod(rs)):
        jdx = to_idx(rs, j)
        full = jdx[: d - 1] + [i - 1] + jdx[d - 1 :]
        data.append(a.data[from_idx(a.shape, full)])
    return Arr(rs, data, a.kind)


def i2d(a):
    return each(float, a, "double")


def add(x, y):
    return x + y


def mul(x, y):
    return x * y


# ---------------------------------------------------------------------------------------------
# FCL printing (docs/fcl.md section 4.4)


def fcl_ints(xs):
    """One forceAndPrint line."""
    return "[" + ",".join("%d" % x for x in xs) + "]\n"


def fcl_doubles(xs):
    """One forceAndPrintDouble line (C's %.5f; Python's % formatting rounds the same way)."""
    return "[" + ",".join("%.5f" % x for x in xs) + "]\n"


def trunc_div(a, b):
    """FCL's `/` on run-time values: C truncation toward zero (docs/fcl.md 4.2)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def trunc_mod(a, b):
    """FCL's `%` on run-time values: the remainder has the sign of the dividend."""
    return a - b * trunc_div(a, b)


# ---------------------------------------------------------------------------------------------
# Writing and checking the expected files


class Error:
    """An expected run-time or static error: the kind written to NAME.expected-error."""

    def __init__(self, kind):
        self.kind = kind


def main(folder, expected):
    """Writes (or, with --check, compares) folder/NAME.expected[-error] for each entry.

    `expected` maps a test name to a function returning the expected stdout (a str) or an Error.
    With --check nothing is written; the exit status is 1 when any file differs or is missing,
    or when a test program NAME.tail / NAME.fcl has no entry here.
    """
    check = "--check" in sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.join(here, "..", folder)
    bad = []
    for name, compute in expected.items():
        value = compute()
        if isinstance(value, Error):
            path, text, other = name + ".expected-error", value.kind + "\n", name + ".expected"
        else:
            path, text, other = name + ".expected", value, name + ".expected-error"
        full = os.path.join(root, path)
        programs = [p for p in (name + ".tail", name + ".fcl") if os.path.exists(os.path.join(root, p))]
        if len(programs) != 1:
            bad.append("%s/%s: expected exactly one program NAME.tail or NAME.fcl" % (folder, name))
        if check:
            try:
                with open(full) as f:
                    if f.read() != text:
                        bad.append("%s/%s differs from what the script computes" % (folder, path))
            except OSError:
                bad.append("%s/%s is missing" % (folder, path))
            if os.path.exists(os.path.join(root, other)):
                bad.append("%s/%s should not exist" % (folder, other))
        else:
            with open(full, "w") as f:
                f.write(text)
            if os.path.exists(os.path.join(root, other)):
                os.remove(os.path.join(root, other))
    for entry in sorted(os.listdir(root)):
        stem, ext = os.path.splitext(entry)
        if ext in (".tail", ".fcl") and stem not in expected:
            bad.append("%s/%s has no expected value in the script" % (folder, entry))
    for line in bad:
        print(line, file=sys.stderr)
    if not check:
        print("%s: wrote %d expected files" % (folder, len(expected)))
    sys.exit(1 if bad else 0)
