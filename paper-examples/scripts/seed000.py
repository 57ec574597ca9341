"""Writes (or with --check verifies) paper-examples/seed000-push/*.expected*.

Seed 000 is Svensson & Svenningsson, "Defunctionalizing Push Arrays". The expectations model the
paper's Pull arrays as (length, index function) and its Push arrays as lists of (index, value)
writes, following Figures 5 and 6 and section 5's `index`, in plain Python.
"""

from common import Error, fcl_doubles, fcl_ints, main


def pull(xs):
    return (len(xs), lambda i: xs[i])


def to_list(p):
    n, f = p
    return [f(i) for i in range(n)]


def materialise(n, writes):
    """Runs a push array's writes into a fresh n-element array; every place exactly once."""
    out = [None] * n
    for i, v in writes:
        if not 0 <= i < n:
            raise IndexError(i)
        assert out[i] is None, "two writes to %d" % i
        out[i] = v
    assert None not in out
    return out


def push(xs):
    return [(i, x) for i, x in enumerate(xs)]


def push_reverse(writes, n):
    return [(n - 1 - i, a) for i, a in writes]


def push_rotate(d, writes, n):
    return [((i + d) % n, a) for i, a in writes]


def push_append(w1, l1, w2):
    return w1 + [(l1 + i, a) for i, a in w2]


def push_interleave(w1, w2):
    return [(2 * i, a) for i, a in w1] + [(2 * i + 1, a) for i, a in w2]


def pull_fusion():
    n1, a = pull(list(range(6)))
    n2, b = pull(list(range(4)))
    return fcl_ints(to_list((min(n1, n2), lambda i: (a(i) * 2) + (b(i) + 1))))


def pull_halve():
    l, f = pull(list(range(7)))
    l2 = l // 2
    return fcl_ints(to_list((l2, f))) + fcl_ints(to_list((l - l2, lambda i: f(i + l2))))


def pull_rotate():
    l, f = pull(list(range(5)))
    return fcl_ints(to_list((l, lambda ix: f((ix + 2) % l))))


def push_ex1():
    xs = list(range(10))
    writes = push_rotate(3, push_reverse([(i, x + 1) for i, x in push(xs)], 10), 10)
    return fcl_ints(materialise(10, writes))


def ex1_index(xs, ix):
    """index (Rotate 3 (Reverse (Map (+1) xs))) ix with floor modulo (Python's %)."""
    return xs[(10 - 1) - ((ix - 3) % 10)] + 1


def saxpy(xs, ys):
    return [(2.0 * x) + y for x, y in zip(xs, ys)]


XS = [float(i) * 0.5 for i in range(10)]
YS = [float(i * i) / 4.0 for i in range(10)]


def saxpy_ex1():
    ex1 = [YS[(10 - 1) - ((ix - 3) % 10)] + 1.0 for ix in range(10)]
    return fcl_doubles(saxpy(XS, ex1))


def half_cleaner():
    xs = [3, 7, 1, 8, 5, 2, 6, 4]
    h = len(xs) // 2
    pairs = [(a, b) if a <= b else (b, a) for a, b in zip(xs[:h], xs[h:])]
    lo, hi = [p[0] for p in pairs], [p[1] for p in pairs]
    return fcl_ints(materialise(8, push_append(push(lo), 4, push(hi))))


EXPECTED = {
    "pull-fusion": pull_fusion,
    "pull-halve": pull_halve,
    "pull-reverse": lambda: fcl_ints(list(reversed(range(8)))),
    "pull-rotate": pull_rotate,
    "push-reverse": lambda: fcl_ints(materialise(8, push_reverse(push(list(range(8))), 8))),
    "push-rotate": lambda: fcl_ints(materialise(5, push_rotate(2, push(list(range(5))), 5))),
    "push-append": lambda: fcl_ints(materialise(8, push_append(push([1, 2, 3]), 3, push([10, 20, 30, 40, 50])))),
    "push-interleave": lambda: fcl_ints(materialise(8, push_interleave(push(list(range(4))), push([100, 101, 102, 103])))),
    "push-interleave-unequal": lambda: Error("index-out-of-bounds"),
    "push-ex1": push_ex1,
    "push-imap": lambda: fcl_ints([100 * i + x for i, x in enumerate([5, 6, 7, 8])]),
    "index-append-as-printed": lambda: Error("index-out-of-bounds"),
    "index-append-fixed": lambda: fcl_ints([1, 2, 3, 10, 20]),
    "index-ex1-as-printed": lambda: Error("index-out-of-bounds"),
    "index-ex1-fixed": lambda: fcl_ints([ex1_index(list(range(10)), ix) for ix in range(10)]),
    "index-interleave": lambda: fcl_ints([0, 100, 1, 101, 2, 102, 3, 103]),
    "saxpy": lambda: fcl_doubles(saxpy(XS, YS)),
    "saxpy-ex1": saxpy_ex1,
    "half-cleaner": half_cleaner,
}

if __name__ == "__main__":
    # The pull view of ex1 must agree with the push view (the point of section 5).
    assert [ex1_index(list(range(10)), ix) for ix in range(10)] == \
        materialise(10, push_rotate(3, push_reverse([(i, x + 1) for i, x in push(list(range(10)))], 10), 10))
    main("seed000-push", EXPECTED)
