"""Writes (or with --check verifies) paper-examples/seed001-talk/*.expected*.

Seed 001 is Svenningsson's talk "Pull and Push arrays, Effects and Array Fusion". The values
follow the slides' Haskell definitions (Pull = index function + length, Push = a writer loop),
modelled in plain Python.
"""

from common import Error, fcl_ints, main


def rotate_left(i, xs):
    return [xs[(ix + i) % len(xs)] for ix in range(len(xs))]


def push_concat(a, b, offset):
    """r w = p w >> q (fn i a => w (i + offset) a), materialised into len(a) + len(b) places."""
    out = [None] * (len(a) + len(b))
    for i, x in list(enumerate(a)) + [(i + offset, x) for i, x in enumerate(b)]:
        if out[i] is not None:
            return Error("race")
        out[i] = x
    return fcl_ints(out) if None not in out else Error("hole")


def cobind():
    v = [1, 2, 3, 4]
    table = [x for i in range(4) for x in rotate_left(i, v)]
    assert table == [1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 1, 2, 3], "the slide's table"
    counit = [rotate_left(i, v)[0] for i in range(4)]
    sums = [sum(rotate_left(i, v)) for i in range(4)]
    return fcl_ints(table) + fcl_ints(counit) + fcl_ints(sums)


def dup():
    xs = [7 * (i + 1) for i in range(4)]
    out = [None] * 8
    for i, x in enumerate(xs):
        out[2 * i] = x
        out[2 * i + 1] = x
    return fcl_ints(out)


EXPECTED = {
    "sum": lambda: fcl_ints([sum(range(1, 11))]),
    "scprod": lambda: fcl_ints([sum(a * b for a, b in zip([1, 2, 3, 4, 5], [5, 4, 3, 2, 1, 0]))]),
    "pull-concat": lambda: fcl_ints([1, 2, 3] + [10, 20, 30, 40]),
    "push-concat": lambda: push_concat([1, 2, 3, 4], [10, 20, 30, 40], 4),
    "push-concat-as-printed": lambda: push_concat([1, 2, 3, 4], [10, 20, 30, 40], 1),
    "dup": dup,
    "cobind": cobind,
    "force-reuse": lambda: fcl_ints(list(reversed([3 * x for x in range(1, 7)]))),
    "zipwith": lambda: fcl_ints([a - b for a, b in zip([10, 20, 30, 40, 50], [1, 2, 3])]),
}

if __name__ == "__main__":
    main("seed001-talk", EXPECTED)
