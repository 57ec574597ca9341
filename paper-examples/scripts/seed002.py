"""Writes (or with --check verifies) paper-examples/seed002-moa/*.expected.

Seed 002 compares the Mathematics of Arrays (psi calculus) with pull arrays. Its running example
is the 3 x 5 x 4 array A holding 0..59. psi is computed here straight from its definition
(p psi A selects with the 0-based partial index p; gamma is the row-major offset), not through
TAIL's operators, so the TAIL programs (idxS, take, vreverse, ...) are checked against MoA.
"""

from common import Arr, add, i2d, layout, main, pr, reduce, result_line, scalar, vec

SHAPE = [3, 5, 4]
A = list(range(60))


def psi(p, shape=SHAPE, data=A):
    """p psi A: the sub-array at the 0-based partial index p (MoA definition 1)."""
    k = len(p)
    rest = shape[k:]
    size = 1
    for s in rest:
        size *= s
    offset = 0
    for i, s in zip(p, shape):
        assert 0 <= i < s
        offset = offset * s + i
    return Arr(rest, data[offset * size:(offset + 1) * size])


def reverse(shape, data):
    """Phi: reversal of the 0th axis (MoA definition 3: <i> psi Phi A = <s0 - i - 1> psi A)."""
    return shape, [x for i in range(shape[0]) for x in psi([shape[0] - i - 1], shape, data).data]


def take(k, shape, data):
    """k Delta A for k >= 0 (MoA definition 2): the first k planes."""
    return [k] + shape[1:], [x for i in range(k) for x in psi([i], shape, data).data]


def drop(k, shape, data):
    return [shape[0] - k] + shape[1:], [x for i in range(k, shape[0]) for x in psi([i], shape, data).data]


def total(a):
    return sum(a.data)


def x_array():
    """X = (2 Delta Phi A) x (1 Nabla Phi A), equation (4)."""
    rs, rd = reverse(SHAPE, A)
    ts, td = take(2, rs, rd)
    ds, dd = drop(1, rs, rd)
    assert ts == ds == [2, 5, 4], "rho X is <2 5 4> (the paper prints <2 4 5>)"
    return Arr(ts, [a * b for a, b in zip(td, dd)])


def psi_plane():
    plane = psi([1])
    assert plane.data == list(range(20, 40))
    return pr(plane) + result_line(scalar(float(total(plane)), "double"))


def psi_vector():
    v = psi([2, 1])
    assert v.data == [44, 45, 46, 47], "the paper's <2 1> psi A"
    return pr(v) + result_line(scalar(float(total(v)), "double"))


def psi_scalar():
    s = psi([2, 1, 3])
    assert s.data == [47], "the paper's <2 1 3> psi A"
    return pr(s) + result_line(scalar(47.0, "double"))


def psi_gamma():
    gamma = (2 * 5 + 1) * 4 + 3
    return pr(scalar(A[gamma])) + pr(psi([2, 1, 3])) + result_line(scalar(0.0, "double"))


def take_reverse():
    rs, rd = reverse(SHAPE, A)
    ts, td = take(2, rs, rd)
    v = psi([1, 2], ts, td)
    assert v.data == psi([1, 2]).data, "psi reduction: <1 2> psi (2 Delta Phi A) = <1 2> psi A"
    return pr(v) + pr(psi([1, 2])) + pr(psi([0], rs, rd)) + result_line(scalar(float(total(v)), "double"))


def moa_x():
    x = x_array()
    return pr(vec(x.shape)) + pr(x) + result_line(scalar(float(total(x)), "double"))


def moa_x_planes():
    x = x_array()
    out = ""
    for i in range(2):
        plane = psi([i], x.shape, x.data)
        dnf = Arr([5, 4], [a * b for a, b in zip(psi([2 - i]).data, psi([1 - i]).data)])
        assert plane.data == dnf.data, "equation (6)"
        out += pr(plane) + pr(dnf)
    return out + result_line(scalar(0.0, "double"))


def moa_onf():
    """Equation (9) with the paper's (i-1) read as (1-i): a[(2-i)*20 + iota 20] x a[(1-i)*20 + iota 20]."""
    rows = [[A[(2 - i) * 20 + j] * A[(1 - i) * 20 + j] for j in range(20)] for i in range(2)]
    assert rows[0] + rows[1] == x_array().data
    return (pr(vec(rows[0])) + pr(vec(rows[1])) + pr(vec(rows[0] + rows[1]))
            + result_line(scalar(float(sum(rows[0]) + sum(rows[1])), "double")))


def pull_take_drop_rotate():
    v = list(range(1, 7))
    rot = [v[(i + 2) % 6] for i in range(6)]  # the paper's pull rotate: ixf ((i + k) mod l), left
    return (pr(vec(v[:3])) + pr(vec(v[2:])) + pr(vec(rot)) + pr(vec(v + [0, 0]))
            + result_line(scalar(float(sum(rot)), "double")))


def map_fusion():
    v = list(range(1, 6))
    return pr(vec([2 * (5 * x) for x in v])) + pr(vec([10 * x for x in v])) + result_line(scalar(0.0, "double"))


EXPECTED = {
    "psi-plane": psi_plane,
    "psi-vector": psi_vector,
    "psi-scalar": psi_scalar,
    "psi-gamma": psi_gamma,
    "take-reverse": take_reverse,
    "moa-x": moa_x,
    "moa-x-planes": moa_x_planes,
    "moa-onf": moa_onf,
    "pull-take-drop-rotate": pull_take_drop_rotate,
    "map-fusion": map_fusion,
}

if __name__ == "__main__":
    main("seed002-moa", EXPECTED)
