"""Writes (or with --check verifies) paper-examples/seed004-thesis/*.expected*.

Seed 004 is Dybdal's thesis: chapter 2 (AL-core examples), chapter 3 (TAIL; see seed004_tail.py)
and chapter 5 (FCL). The FCL expectations below are computed from what each example means (a
reversal, a transpose, a sum, a matrix product), in plain Python, never by running tailfcl.
"""

from common import Error, fcl_ints, main, trunc_div
from seed004_tail import EXPECTED as TAIL_EXPECTED


def al_iota_map():
    return fcl_ints([x * x for x in range(1000)])


def al_scan():
    xs = [5, 1, 4, 8, 0, 7, 1, 3]
    scan = [0]
    for x in xs:
        scan.append(scan[-1] + x)
    assert scan[:8] == [0, 5, 6, 10, 18, 18, 25, 26], "thesis Example 2.5"
    inclusive = scan[1:]
    assert inclusive == [5, 6, 10, 18, 18, 25, 26, 29], "thesis Example 2.6"
    return fcl_ints(scan[:8]) + fcl_ints(scan) + fcl_ints(inclusive)


def al_backpermute():
    arr = [10 * (i + 1) for i in range(4)]
    replicated = arr * 3
    source = [100 + i for i in range(5)]
    gathered = [source[(3 * i) % 5] for i in range(5)]
    return fcl_ints(replicated) + fcl_ints(gathered)


def transpose(rows, cols, flat):
    """The transpose of a row-major rows x cols matrix (a cols x rows matrix)."""
    return [flat[r * cols + c] for c in range(cols) for r in range(rows)]


def transpose_as_printed(rows, cols, flat):
    """The thesis's printed naive transpose: element n reads j * rows + i."""
    out = []
    for n in range(rows * cols):
        i, j = trunc_div(n, rows), n % rows
        out.append(flat[j * rows + i])
    return out


def tiles(split, width, height, flat):
    """splitGrid's meaning: tiles in row-major tile order, each tile row-major."""
    out = []
    for ty in range(height // split):
        for tx in range(width // split):
            out += [flat[(ty * split + ly) * width + tx * split + lx]
                    for ly in range(split) for lx in range(split)]
    return out


def matmul(a, b, n, p, m):
    """The n x m product of the n x p matrix a and the p x m matrix b (row-major)."""
    return [sum(a[i * p + k] * b[k * m + j] for k in range(p)) for i in range(n) for j in range(m)]


def reduce_block_odd():
    # The printed algorithm: repeatedly zipWith (+) the two halves (the second is the longer).
    xs = list(range(5))
    while len(xs) != 1:
        h = len(xs) // 2
        xs = [a + b for a, b in zip(xs[:h], xs[h:])]
    assert xs == [6]
    return fcl_ints(xs)


def scan_sklansky():
    xs = [i % 5 + 1 for i in range(16)]
    out, acc = [], 0
    for x in xs:
        acc += x
        out.append(acc)
    return fcl_ints(out)


def foldl_fig53():
    acc = 100
    for x in [1, 2, 3, 4, 5]:
        acc = acc - x
    return fcl_ints([acc])


def scanl_fig53():
    out = [100]
    for x in [1, 2, 3, 4, 5]:
        out.append(out[-1] - x)
    return fcl_ints(out)


EXPECTED = dict(TAIL_EXPECTED)
EXPECTED.update({
    "al-iota-map": al_iota_map,
    "al-scan": al_scan,
    "al-backpermute": al_backpermute,
    "reverse": lambda: fcl_ints(list(reversed(range(10)))),
    "rev-distribute": lambda: fcl_ints(list(reversed(range(16)))),
    "transpose-naive": lambda: fcl_ints(transpose(3, 3, list(range(9)))),
    "transpose-naive-rect-as-printed": lambda: fcl_ints(transpose_as_printed(2, 3, list(range(6)))),
    "transpose-naive-rect-fixed": lambda: fcl_ints(transpose(2, 3, list(range(6)))),
    "transpose-tiled": lambda: fcl_ints(transpose(4, 4, list(range(16)))),
    "splitgrid": lambda: fcl_ints(tiles(2, 4, 4, list(range(16)))),
    "concatgrid-roundtrip": lambda: fcl_ints(list(range(24))),
    "reduce-block": lambda: fcl_ints([sum(range(16))]),
    "reduce-block-odd": reduce_block_odd,
    "reduce-part": lambda: fcl_ints([sum(range(c * 8, c * 8 + 8)) for c in range(4)]),
    "reduce-part-blocksize": lambda: fcl_ints([sum(range(c * 512, c * 512 + 512)) for c in range(4)]),
    "reduce-full": lambda: fcl_ints([sum(range(64))]),
    "foldl-fig53": foldl_fig53,
    "scanl-fig53": scanl_fig53,
    "scan-sklansky": scan_sklansky,
    "matmul-tiled": lambda: fcl_ints(matmul([i % 7 - 3 for i in range(24)], [i % 5 for i in range(12)], 4, 6, 2)),
})

if __name__ == "__main__":
    main("seed004-thesis", EXPECTED)
