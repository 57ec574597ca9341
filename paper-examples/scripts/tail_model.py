"""A small evaluator for the TAIL example programs, used only as a cross-check.

The expected files are computed from the papers (seed*.py). This script reads each TAIL program
text, evaluates it with the operator models of common.py (apltail's meanings), after checking its type
annotations with tail_types.py (apltail's typing rules), and checks that
the program prints exactly its expected file, or fails where an error is expected. So a typo in a
program (a wrong axis, a missing operator) is caught before any engine exists. 

Usage: python3 tail_model.py [--check] [FILES...]   (default: every .tail under paper-examples/)
"""

import glob
import os
import re
import sys

import common as c
import tail_types

TOKEN = re.compile(r"\s*(?:(?P<num>-?\d+\.\d+(?:e-?\d+)?|-?\d+e-?\d+|-?\d+)|(?P<id>[A-Za-z_][A-Za-z0-9_]*)|(?P<p>=>|[()\[\],:=<>*~]))")


class ModelError(Exception):
    """The program fails: `kind` is the error class the model detected."""

    def __init__(self, kind, msg):
        super().__init__(msg)
        self.kind = kind


def tokenize(text):
    pos, out = 0, []
    text = text.rstrip("\n")
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ModelError("parse-error", "bad token at %r" % text[pos:pos + 10])
        pos = m.end()
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
    return out


class Parser:
    def __init__(self, toks):
        self.toks, self.i = toks, 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, value=None):
        tok = self.peek()
        if tok[0] is None or (value is not None and tok[1] != value):
            raise ModelError("parse-error", "expected %r, got %r" % (value, tok[1]))
        self.i += 1
        return tok

    def type(self):
        """[k]r, <k>n, S(k,n), SV(k,n) as tail_types tuples."""
        kind, v = self.take()
        if v == "[":
            k = self.take()[1]; self.take("]")
            return ("A", k, int(self.take()[1]))
        if v == "<":
            k = self.take()[1]; self.take(">")
            return ("V", k, int(self.take()[1]))
        if v in ("S", "SV"):
            self.take("("); k = self.take()[1]; self.take(",")
            sign = -1 if self.peek()[1] == "~" and self.take() else 1
            n = sign * int(self.take()[1]); self.take(")")
            return (v, k, n)
        raise ModelError("parse-error", "bad type at %r" % v)

    def expr(self):
        kind, v = self.peek()
        if v == "let":
            self.take(); name = self.take()[1]; self.take(":"); ty = self.type(); self.take("=")
            bound = self.expr(); self.take("in"); body = self.expr()
            return ("let", name, bound, body, ty)
        if v == "fn":
            self.take(); name = self.take()[1]; self.take(":"); ty = self.type(); self.take("=>")
            return ("fn", name, self.expr(), ty)
        if v == "[":
            self.take(); elems = [self.expr()]
            while self.peek()[1] == ",":
                self.take(); elems.append(self.expr())
            self.take("]")
            return ("vec", elems)
        if kind == "num":
            self.take()
            return ("lit", float(v) if ("." in v or "e" in v) else int(v))
        if v in ("tt", "ff"):
            self.take()
            return ("lit", v == "tt")
        if kind == "id":
            self.take()
            if self.peek()[1] == "(":
                self.take(); args = []
                if self.peek()[1] != ")":
                    args.append(self.expr())
                    while self.peek()[1] == ",":
                        self.take(); args.append(self.expr())
                self.take(")")
                return ("op", v, args)
            return ("var", v)
        raise ModelError("parse-error", "unexpected %r" % v)


def kind_of(v):
    return "bool" if isinstance(v, bool) else ("double" if isinstance(v, float) else "int")


def sc(v):
    return c.Arr([], [v], kind_of(v))


def val(a):
    return a.data[0]


SCALAR2 = {
    "addi": lambda x, y: x + y, "subi": lambda x, y: x - y, "muli": lambda x, y: x * y,
    "maxi": max, "mini": min, "addd": lambda x, y: x + y, "subd": lambda x, y: x - y,
    "muld": lambda x, y: x * y, "divd": lambda x, y: x / y,
    "maxd": lambda x, y: x if x > y else y, "mind": lambda x, y: x if x < y else y,
    "lti": lambda x, y: x < y, "eqi": lambda x, y: x == y,
}
SCALAR1 = {"i2d": float, "b2i": int, "b2iV": int, "negi": lambda x: -x}


class Evaluator:
    def __init__(self):
        self.out = []

    def call(self, f, *args):
        for a in args:
            f = f(a)
        return f

    def fn2(self, f):
        return lambda x, acc: val(self.call(f, sc(x), sc(acc)))

    def op(self, name, args):
        base = name[:-1] if name.endswith("V") and name not in ("b2iV",) else name
        a = args
        if base in SCALAR2:
            return sc(SCALAR2[base](val(a[0]), val(a[1])))
        if base in SCALAR1:
            return sc(SCALAR1[base](val(a[0])))
        if base == "iota":
            if val(a[0]) < 0:
                raise ModelError("negative-iota", "iota of a negative number")
            return c.iota(val(a[0]))
        if base == "shape":
            return c.vec(list(a[0].shape))
        if base == "reshape":
            return c.reshape(a[0].data, a[1])
        if base == "rav":
            return c.Arr([len(a[0].data)], a[0].data, a[0].kind)
        simple = {"transp": c.transp, "vreverse": c.vreverse, "first": c.first}
        if base in simple:
            return simple[base](a[0])
        if base == "transp2":
            return c.transp2(a[0].data, a[1])
        shaped = {"take": c.take, "drop": c.drop, "rotate": c.rotate, "vrotate": c.vrotate}
        if base in shaped:
            return shaped[base](val(a[0]), a[1])
        if base in ("cat", "cons", "snoc"):
            return {"cat": c.cat, "cons": c.cons, "snoc": c.snoc}[base](a[0], a[1])
        if base == "each":
            data = [val(self.call(a[0], sc(x))) for x in a[1].data]
            return c.Arr(a[1].shape, data, kind_of(data[0]) if data else a[1].kind)
        if base == "zipWith":
            if a[1].shape != a[2].shape:
                raise ModelError("shape-mismatch", "zipWith of different shapes")
            data = [val(self.call(a[0], sc(x), sc(y))) for x, y in zip(a[1].data, a[2].data)]
            return c.Arr(a[1].shape, data, kind_of(data[0]) if data else a[1].kind)
        if base == "reduce":
            return c.reduce(self.fn2(a[0]), val(a[1]), a[2])
        if base == "scan":
            return c.scan(self.fn2(a[0]), a[2])
        if base == "idxS":
            return c.idxs(val(a[0]), val(a[1]), a[2])
        if base in ("power", "powerScl"):
            x = a[2]
            for _ in range(val(a[1])):
                x = self.call(a[0], x)
            return x
        if base == "idxassign":
            idx = a[0].data
            if len(idx) != len(a[1].shape) or any(not 1 <= i <= n for i, n in zip(idx, a[1].shape)):
                raise ModelError("index-out-of-bounds", "idxassign outside the array")
            a[1].data[c.from_idx(a[1].shape, [i - 1 for i in idx])] = val(a[2])
            return sc(True)
        if base.startswith("prArr") or base.startswith("prScl"):
            self.out.append(c.pr(a[0]))
            return a[0]
        raise ModelError("type-error", "operator %s is not modelled" % name)

    def ev(self, e, env):
        tag = e[0]
        if tag == "lit":
            return sc(e[1])
        if tag == "vec":
            items = [val(self.ev(x, env)) for x in e[1]]
            return c.Arr([len(items)], items, kind_of(items[0]))
        if tag == "var":
            if e[1] in env:
                return env[e[1]]
            name = e[1]
            if name in SCALAR2:
                return lambda x: lambda y: self.op(name, [x, y])
            if name in SCALAR1:
                return lambda x: self.op(name, [x])
            raise ModelError("type-error", "unknown name %s" % name)
        if tag == "let":
            return self.ev(e[3], dict(env, **{e[1]: self.ev(e[2], env)}))
        if tag == "fn":
            return lambda x: self.ev(e[2], dict(env, **{e[1]: x}))
        return self.op(e[1], [self.ev(x, env) for x in e[2]])


def run(text):
    """The program's stdout, or a ModelError. The program is type-checked first (tail_types)."""
    ast = Parser(tokenize(text)).expr()
    try:
        tail_types.check(ast, {})
    except tail_types.TypeErr as e:
        raise ModelError("type-error", str(e))
    ev = Evaluator()
    result = ev.ev(ast, {})
    return "".join(ev.out) + c.result_line(result)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    files = [f for f in sys.argv[1:] if not f.startswith("--")] or sorted(
        glob.glob(os.path.join(here, "..", "*", "*.tail")))
    bad = 0
    for path in files:
        base = path[:-len(".tail")]
        try:
            got, kind = run(open(path).read()), None
        except ModelError as e:
            got, kind = None, e.kind
        except (AssertionError, IndexError, ValueError, ZeroDivisionError) as e:
            got, kind = None, "model failure: %r" % e
        if os.path.exists(base + ".expected"):
            ok = got == open(base + ".expected").read()
        else:
            want = open(base + ".expected-error").read().strip()
            ok = kind is not None and (kind == want or (kind.endswith("error") and want.endswith("error")))
        if not ok:
            bad += 1
            print("MISMATCH %s: model gives %r" % (os.path.relpath(path, here), got if kind is None else kind),
                  file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
