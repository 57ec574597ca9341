"""Writes (or with --check verifies) paper-examples/seed003-dps/*.expected*.

Seed 003 is Lin's thesis on destination-passing style with views: the vector-addition and
concatenation examples of section 4.1, the Lift primitives of section 2.2 (Map, Reduce, Split,
Join, Zip, At, Slide), and the benchmarks of chapter 7 (3Add, Cross, MatMul, padding, the
Jacobi/Seidel stencils). Every value is computed from the primitive's definition in the thesis.
"""

from common import Arr, Error, fcl_ints, main, pr, result_line, scalar, vec


def flt(x):
    return scalar(float(x), "double")


def mat(rows):
    return Arr([len(rows), len(rows[0])], [x for r in rows for x in r])


def dmat(rows):
    return Arr([len(rows), len(rows[0])], [x for r in rows for x in r], "double")


def clamp_pad(rows):
    """PadS2D: repeat the first/last element of every row, then the first/last row."""
    padded = [[r[0]] + r + [r[-1]] for r in rows]
    return [padded[0]] + padded + [padded[-1]]


def vector_add():
    v = [a + b for a, b in zip([1, 2, 3, 4], [10, 20, 30, 40])]
    return pr(vec(v)) + result_line(flt(sum(v)))


def three_add():
    v = [a + (b + c) for a, b, c in zip([1, 2, 3, 4], [10, 20, 30, 40], [100, 200, 300, 400])]
    return pr(vec(v)) + result_line(flt(sum(v)))


def concat_source():
    v = [1, 2, 3] + [10, 20, 30, 40, 50]
    return pr(vec(v)) + result_line(flt(sum(v)))


def lift_map():
    v = [x * x for x in range(1, 6)]
    return pr(vec(v)) + result_line(flt(sum(v)))


def lift_reduce():
    total = 0.5 + 1.25 + 2.0 + 4.125
    return pr(scalar(total, "double")) + pr(scalar(0.0, "double")) + result_line(scalar(total, "double"))


def lift_split():
    # Split(2, [x0, x1, x2, x3]) = [[x0, x1], [x2, x3]]
    return pr(mat([[1, 2], [3, 4]])) + pr(mat([[1, 2], [3, 4], [5, 6]])) + result_line(flt(3))


def lift_join():
    v = [1, 2, 3, 4, 5, 6]
    return pr(vec(v)) + pr(vec(v[:4])) + result_line(flt(sum(v)))


def lift_at():
    return pr(scalar(7)) + pr(scalar(7)) + pr(scalar(9)) + result_line(flt(16))


def lift_slide():
    xs = [3, 1, 4, 1, 5, 9]
    windows = [xs[i:i + 3] for i in range(0, len(xs) - 3 + 1, 1)]  # Slide(3, 1, xs)
    sums = [sum(w) for w in windows]
    return pr(mat(windows)) + pr(vec(sums)) + result_line(flt(max(sums)))


def cross_product():
    a, b = [1, 2, 3], [4, 5, 6]
    c = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    return pr(vec(c)) + result_line(flt(sum(x * y for x, y in zip(c, a))))


A = [[1, 2, 3], [4, 5, 6]]
B = [[1, 0], [2, 1], [0, 3]]


def product(x, y):
    return [[sum(x[i][k] * y[k][j] for k in range(len(y))) for j in range(len(y[0]))] for i in range(len(x))]


def matmul_fixed():
    c = product(A, B)
    return pr(mat(A)) + pr(mat(B)) + pr(mat(c)) + result_line(flt(sum(map(sum, c))))


def matmul_as_printed():
    # MatMul0 = fn mat0, mat1. Map(fn row0. Map(fn row1. DotProd(row0, row1), mat1)) <| Transpose(mat0)
    at = [list(col) for col in zip(*A)]
    r = [[sum(x * y for x, y in zip(row0, row1)) for row1 in B] for row0 in at]
    ba = product(B, A)
    assert r == [list(col) for col in zip(*ba)], "MatMul0 computes (B A) transposed"
    return pr(mat(r)) + result_line(flt(sum(map(sum, r))))


def pad():
    v = [1.0, 2.0, 4.0, 8.0, 16.0]
    p = [v[0]] + v + [v[-1]]
    total = p[0]
    for x in p[1:]:
        total = x + total
    return pr(Arr([7], p, "double")) + result_line(scalar(total, "double"))


def jacobi1d():
    v = [1.0, 2.0, 4.0, 8.0, 16.0]
    p = [v[0]] + v + [v[-1]]
    out = [((p[i] + p[i + 1]) + p[i + 2]) / 3.0 for i in range(5)]
    total = out[0]
    for x in out[1:]:
        total = x + total
    return pr(Arr([5], out, "double")) + result_line(scalar(total, "double"))


def jacobi2d():
    m = [[float(r * 4 + c + 1) for c in range(4)] for r in range(3)]
    p = clamp_pad(m)
    out = [[0.2 * ((((p[i + 1][j + 1] + p[i + 1][j]) + p[i + 1][j + 2]) + p[i + 2][j + 1]) + p[i][j + 1])
            for j in range(4)] for i in range(3)]
    rows = []
    for r in out:
        acc = r[0]
        for x in r[1:]:
            acc = x + acc
        rows.append(acc)
    total = rows[0]
    for x in rows[1:]:
        total = x + total
    return pr(dmat(p)) + pr(dmat(out)) + result_line(scalar(total, "double"))


SEIDEL = [[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8], [9, 7, 9, 3]]


def conv3(m, rows, cols):
    return [[sum(m[i + di][j + dj] for di in range(3) for dj in range(3)) for j in range(cols)] for i in range(rows)]


def seidel2d_source():
    out = conv3(clamp_pad(SEIDEL), 4, 4)
    return pr(mat(out)) + result_line(flt(sum(map(sum, out))))


def seidel2d_dest():
    inner = conv3(SEIDEL, 2, 2)
    out = clamp_pad(inner)
    return pr(mat(inner)) + pr(mat(out)) + result_line(flt(sum(map(sum, out))))


def jacobi3d():
    """Map3(Conv3, Slide3(3, 1, src)), 7 points, on the 4 x 5 x 6 grid src[x][y][z]."""
    nx, ny, nz = 4, 5, 6
    src = [(37 * i) % 101 for i in range(nx * ny * nz)]

    def at(x, y, z):
        return src[(x * ny + y) * nz + z]

    out = []
    for x in range(1, nx - 1):
        for y in range(1, ny - 1):
            for z in range(1, nz - 1):
                out.append(at(x, y, z) + at(x - 1, y, z) + at(x + 1, y, z) + at(x, y - 1, z)
                           + at(x, y + 1, z) + at(x, y, z - 1) + at(x, y, z + 1))
    return fcl_ints(out)


EXPECTED = {
    "vector-add": vector_add,
    "vector-add-dps": lambda: fcl_ints([11, 22, 33, 44]),
    "three-add": three_add,
    "concat-source": concat_source,
    "concat-source-dps": lambda: fcl_ints([1, 2, 3, 10, 20, 30, 40, 50]),
    "concat-dest": lambda: fcl_ints([1, 2, 3, 10, 20, 30, 40, 50]),
    "lift-map": lift_map,
    "lift-reduce": lift_reduce,
    "lift-split": lift_split,
    "lift-join": lift_join,
    "lift-at": lift_at,
    "lift-zip": lambda: fcl_ints([1, 2, 3]) + fcl_ints([100, 200, 300]) + fcl_ints([101, 202, 303]),
    "lift-slide": lift_slide,
    "cross-product": cross_product,
    "matmul-fixed": matmul_fixed,
    "matmul-as-printed": matmul_as_printed,
    "pad": pad,
    "jacobi1d": jacobi1d,
    "jacobi2d": jacobi2d,
    "seidel2d-source": seidel2d_source,
    "seidel2d-dest": seidel2d_dest,
    "split-dest-as-printed": lambda: Error("race"),
    "jacobi3d": jacobi3d,
    "jacobi3d-25d": jacobi3d,
    "split-dest-fixed": lambda: fcl_ints([10 * i for i in range(6)]),
}

if __name__ == "__main__":
    main("seed003-dps", EXPECTED)
