"""Expected values of the TAIL examples of seed 004 (Dybdal's thesis, chapter 3).

Imported by seed004.py. Each function recomputes an example from the thesis's definitions with
the array model of common.py (apltail's operator meanings), never by running tailfcl.
"""

from common import (Arr, Error, add, cat, cons, drop, first, i2d, iota, layout, mul, pr,
                    reduce, reshape, result_line, rotate, scalar, scan, take, transp, transp2,
                    vec, vrotate, zipwith)

SIGNAL_INPUT = [9, 8, 6, 8, 7, 4, 4, 3, 2, 2, 1, 2, 4, 5, 6]


def signal_parts():
    """Example 3.1: diff = 1 drop (w - 1 rotate-right w) on 0,w; then the clamped quotient."""
    v3 = cons(scalar(0), vec(SIGNAL_INPUT))
    diff = drop(1, zipwith(lambda a, b: a - b, v3, rotate(-1, v3)))
    quot = zipwith(lambda a, b: a / b, i2d(diff), Arr([15], [0.01 + float(x) for x in SIGNAL_INPUT], "double"))
    clamped = Arr(quot.shape, [max(-50.0, min(50.0, 50.0 * q)) for q in quot.data], "double")
    return diff, quot, clamped


def signal():
    _, _, clamped = signal_parts()
    return result_line(reduce(add, 0.0, clamped))


def signal_prints():
    diff, quot, clamped = signal_parts()
    return pr(diff) + pr(quot) + pr(clamped) + result_line(reduce(add, 0.0, clamped))


def inner_product_arrays():
    """Figures 3.5-3.8: A = 3 2 rho iota 5, B = transpose A, R = A +.x B, R2 = x/ +/ R."""
    a = reshape([3, 2], iota(5))
    b = transp(a)
    # The matrix product straight from its definition (not from the TAIL program's transposes).
    r = Arr([3, 3], [sum(a.data[i * 2 + k] * b.data[k * 3 + j] for k in range(2))
                     for i in range(3) for j in range(3)])
    rows = reduce(add, 0, r)
    return a, b, r, rows


def inner_product():
    _, _, _, rows = inner_product_arrays()
    total = reduce(mul, 1, rows)
    assert total.data == [65780], "Figure 3.5 states 65780"
    return result_line(i2d(total))


def inner_product_matrix():
    a, b, r, rows = inner_product_arrays()
    # The program computes R with Figure 3.7's replicate-and-transpose; check that it agrees.
    v9 = transp2([2, 1, 3], reshape([3, 3, 2], a))
    v15 = transp2([1, 3, 2], reshape([3, 2, 3], b))
    assert reduce(add, 0, zipwith(mul, v9, v15)).data == r.data
    return pr(a) + pr(b) + pr(r) + pr(rows) + result_line(i2d(reduce(mul, 1, rows)))


def transpose_double_reduce():
    m = transp(reshape([4, 5], iota(20)))
    return result_line(i2d(reduce(add, 0, reduce(add, 0, m))))


def dotpi():
    d = reduce(add, 0, zipwith(mul, vec([1, 2, 3]), vec([4, 5, 6])))
    return pr(d) + result_line(i2d(d))


def dotpi_matrix():
    d = reduce(add, 0, zipwith(mul, reshape([2, 3], iota(6)), reshape([2, 3], vec([1, 0, 2, 0, 1, 3]))))
    return pr(d) + result_line(i2d(reduce(add, 0, d)))


def dotp():
    t = reduce(lambda x, acc: max(x, acc), -2147483648, zipwith(add, vec([1, 5, 2]), vec([3, 0, 4])))
    d = reduce(add, 0.0, zipwith(mul, vec([0.5, 1.5], "double"), vec([2.0, 4.0], "double")))
    return pr(t) + pr(d) + result_line(scalar(float(t.data[0]) + d.data[0], "double"))


def reduce_order():
    v1 = reduce(lambda x, acc: x - acc, 0, vec([1, 2, 3, 4]))
    v2 = reduce(lambda x, acc: 10 * acc + x, 0, vec([1, 2, 3]))
    v5 = scan(lambda x, acc: x - acc, vec([1, 2, 3, 4]))
    v6 = reduce(add, 0, reshape([2, 3], iota(6)))
    return pr(v1) + pr(v2) + pr(v5) + pr(v6) + result_line(i2d(v1))


def shape_ops():
    v5 = transp2([2, 3, 1], reshape([2, 3, 4], iota(24)))
    return (pr(reshape([2, 3], vec([1, 2])))
            + pr(take(-3, reshape([2, 2], vec([1, 2, 3, 4]))))
            + pr(take(-6, vec([1, 2, 3, 4])))
            + pr(transp(reshape([2, 3, 2], iota(12))))
            + pr(v5)
            + pr(rotate(1, reshape([2, 3], iota(6))))
            + pr(vrotate(-1, reshape([3, 2], iota(6))))
            + pr(cons(vec([0, 0]), reshape([2, 2], vec([1, 2, 3, 4]))))
            + result_line(i2d(first(v5))))


def power():
    v = vec([1, 2, 3])
    for _ in range(2):
        v = rotate(1, v)
    s = 1
    for _ in range(10):
        s *= 2
    return pr(v) + pr(scalar(s)) + result_line(i2d(scalar(s)))


def index_cube():
    """Thesis section 3.1: plane <- cube[;4;] is index(2, 4, cube), idxS(2,4,cube) in apltail."""
    cube = list(range(1, 6001))  # 10 20 30 reshape iota 6000
    plane = [cube[(x * 20 + 3) * 30 + z] for x in range(10) for z in range(30)]
    return pr(Arr([10, 30], plane)) + result_line(scalar(0.0, "double"))


def update():
    """Rule 3.57: update writes one element in place (idxassign, 1-based) and yields tt."""
    m = [1, 2, 3, 4, 5, 6]
    m[(2 - 1) * 3 + (1 - 1)] = 99
    return pr(Arr([2, 3], m)) + pr(scalar(True, "bool")) + result_line(scalar(float(sum(m)), "double"))


EXPECTED = {
    "signal": signal,
    "signal-prints": signal_prints,
    "signal-as-printed": lambda: Error("parse-error"),
    "inner-product-fig37": inner_product,
    "inner-product-fig36": inner_product,
    "inner-product-matrix": inner_product_matrix,
    "transpose-double-reduce": transpose_double_reduce,
    "dotpi": dotpi,
    "dotpi-matrix": dotpi_matrix,
    "dotpi-mismatch": lambda: Error("shape-mismatch"),
    "dotp": dotp,
    "iota-negative": lambda: Error("negative-iota"),
    "reduce-order": reduce_order,
    "shape-ops": shape_ops,
    "power": power,
    "index-cube": index_cube,
    "update": update,
    "update-out-of-range": lambda: Error("index-out-of-bounds"),
}
