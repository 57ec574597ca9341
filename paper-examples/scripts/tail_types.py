"""A checker for the type annotations of the TAIL example programs (docs/tail.md sections 3.3-3.7,
apltail's rules, for the operators the examples use). Used by tail_model.py as a cross-check that
each program is well typed as written: every `let`'s bound expression must be a subtype of its
annotation, and every operator must accept its arguments.

Types are tuples: ("A", k, r) = [k]r, ("V", k, n) = <k>n, ("S", k, n) = S(k,n),
("SV", k, n) = SV(k,n), ("F", t1, t2) = t1 -> t2.
"""


class TypeErr(Exception):
    pass


def A(k, r):
    return ("A", k, r)


INT0, DBL0, BOOL0 = A("int", 0), A("double", 0), A("bool", 0)


def leq(t, u):
    """t <= u in apltail's lattice (spec 3.3)."""
    if t == u:
        return True
    f, k, n = t[0], t[1], t[2] if len(t) > 2 else None
    if f == "S":
        return u == A(k, 0)
    if f == "SV":
        return u == ("V", k, 1) or u == A(k, 1)
    if f == "V":
        return u == A(k, 1)
    return False


def generalize(t):
    return {"S": lambda: A(t[1], 0), "SV": lambda: ("V", t[1], 1), "V": lambda: A(t[1], 1)}[t[0]]()


def join(t, u):
    while t != u:
        if t[0] in ("S", "SV", "V") and not (u[0] in ("S", "SV") and t[0] == "V"):
            t = generalize(t)
        elif u[0] in ("S", "SV", "V"):
            u = generalize(u)
        else:
            raise TypeErr("no join of %r and %r" % (t, u))
    return t


def arr(t):
    if t[0] == "A":
        return t[1], t[2]
    if t[0] in ("V", "SV"):
        return t[1], 1
    if t[0] == "S":
        return t[1], 0
    raise TypeErr("not an array: %r" % (t,))


def scl(t):
    if t[0] == "S" or (t[0] == "A" and t[2] == 0):
        return t[1]
    raise TypeErr("not a scalar: %r" % (t,))


def svec(t):
    if t[0] == "V":
        return t[1], t[2]
    if t[0] == "SV":
        return t[1], 1
    return None


def sint(t):
    return t[2] if t[0] == "S" and t[1] == "int" else None


def need(cond, msg):
    if not cond:
        raise TypeErr(msg)


def fun1(f):
    need(f[0] == "F", "not a function")
    return scl(f[1]), scl(f[2])


def fun2(f):
    need(f[0] == "F" and f[2][0] == "F", "not a binary function")
    return scl(f[1]), scl(f[2][1]), scl(f[2][2])


INT_OPS = {"addi", "subi", "muli", "maxi", "mini"}
DBL_OPS = {"addd", "subd", "muld", "divd", "maxd", "mind"}
INT_CMP = {"lti", "eqi"}
PR = {"I": "int", "D": "double", "B": "bool"}


def op_value(name):
    """The type of an operator used as a function value (spec 2.4)."""
    if name in INT_OPS:
        return ("F", INT0, ("F", INT0, INT0))
    if name in DBL_OPS:
        return ("F", DBL0, ("F", DBL0, DBL0))
    if name in INT_CMP:
        return ("F", INT0, ("F", INT0, BOOL0))
    if name == "i2d":
        return ("F", INT0, DBL0)
    raise TypeErr("unknown name %s" % name)


def op_type(name, ts):
    a = ts
    if name in INT_OPS | INT_CMP:
        need(leq(a[0], INT0) and leq(a[1], INT0), name)
        return BOOL0 if name in INT_CMP else INT0
    if name in DBL_OPS:
        need(leq(a[0], DBL0) and leq(a[1], DBL0), name)
        return DBL0
    if name == "i2d":
        need(leq(a[0], INT0), name)
        return DBL0
    if name in ("b2i", "b2iV"):
        if a[0][0] == "S" and a[0][1] == "bool":
            return ("S", "int", a[0][2])
        need(name == "b2i" and leq(a[0], BOOL0), name)
        return INT0
    if name == "negi":
        return ("S", "int", -a[0][2]) if sint(a[0]) is not None else (need(leq(a[0], INT0), name) or INT0)
    if name in ("iota", "iotaV"):
        if sint(a[0]) is not None:
            return ("V", "int", sint(a[0]))
        need(name == "iota" and leq(a[0], INT0), name)
        return A("int", 1)
    if name in ("shape", "shapeV"):
        if svec(a[0]):
            return ("SV", "int", svec(a[0])[1])
        need(name == "shape", name)
        return ("V", "int", arr(a[0])[1])
    if name == "reshape":
        k, _ = arr(a[1])
        need(svec(a[0]) is not None and svec(a[0])[0] == "int", "reshape needs a static-length shape")
        return A(k, svec(a[0])[1])
    if name == "rav":
        return A(arr(a[0])[0], 1)
    if name in ("take", "takeV"):
        k = sint(a[0])
        if k is not None and (a[1][0] in ("V", "SV") or (a[1][0] == "A" and a[1][2] == 1)):
            return ("V", a[1][1], abs(k))
        need(name == "take" and leq(a[0], INT0) and a[1][0] == "A", name)
        return a[1]
    if name in ("drop", "dropV"):
        k = sint(a[0])
        if k is not None and svec(a[1]):
            return ("V", svec(a[1])[0], max(0, svec(a[1])[1] - abs(k)))
        need(name == "drop" and leq(a[0], INT0), name)
        return A(*arr(a[1]))
    if name in ("cat", "catV"):
        if svec(a[0]) and svec(a[1]):
            need(svec(a[0])[0] == svec(a[1])[0], name)
            return ("V", svec(a[0])[0], svec(a[0])[1] + svec(a[1])[1])
        need(name == "cat" and arr(a[0]) == arr(a[1]), name)
        return A(*arr(a[0]))
    if name in ("cons", "consV", "snoc", "snocV"):
        x, v = (a[0], a[1]) if name.startswith("cons") else (a[1], a[0])
        if svec(v):
            k, n = svec(v)
            need(leq(x, A(k, 0)), name)
            return ("V", k, n + 1)
        if x[0] == "S":
            need(leq(v, A(x[1], 1)), name)
            return A(x[1], 1)
        need(not name.endswith("V"), name)
        kx, rx = arr(x)
        kv, rv = arr(v)
        need(kx == kv and rv == rx + 1, name)
        return v
    if name in ("first", "firstV"):
        if a[0][0] == "SV":
            return ("S", a[0][1], a[0][2])
        need(name == "first" or a[0][0] == "V", name)
        return A(arr(a[0])[0], 0)
    if name in ("vreverse", "transp"):
        arr(a[0])
        return a[0]
    if name in ("rotate", "vrotate", "rotateV", "vrotateV"):
        need(leq(a[0], INT0), name)
        need(not name.endswith("V") or a[1][0] == "V", name)
        arr(a[1])
        return a[1]
    if name == "transp2":
        k, r = arr(a[1])
        need(a[0] == ("V", "int", r), "transp2 needs a permutation of static length %d" % r)
        return a[1]
    if name in ("each", "eachV"):
        k1, k2 = fun1(a[0])
        if a[1][0] in ("V", "SV"):
            need(a[1][1] == k1, name)
            return ("V", k2, svec(a[1])[1])
        need(name == "each" and arr(a[1])[0] == k1, name)
        return A(k2, arr(a[1])[1])
    if name == "zipWith":
        k1, k2, k3 = fun2(a[0])
        (ka, ra), (kb, rb) = arr(a[1]), arr(a[2])
        need(ka == k1 and kb == k2 and ra == rb, name)
        return A(k3, ra)
    if name in ("reduce", "scan"):
        k1, k2, k3 = fun2(a[0])
        k, r = arr(a[2])
        need(k1 == k2 == k3 == k == scl(a[1]), name)
        return A(k, r - 1) if name == "reduce" else a[2]
    if name == "power":
        need(leq(a[1], INT0) and a[0][0] == "F" and leq(a[0][2], a[0][1]), name)
        return join(a[2], a[0][2])
    if name == "powerScl":
        need(leq(a[1], INT0) and a[0][0] == "F" and a[0][1] == a[0][2] and leq(a[2], a[0][1]), name)
        return a[0][1]
    if name == "idxS":
        need(a[0][0] == "S" and a[0][1] == "int" and leq(a[1], INT0), name)
        k, r = arr(a[2])
        return A(k, r - 1)
    if name == "idxassign":
        k, r = arr(a[1])
        need(scl(a[2]) == k, name)
        need(svec(a[0]) is not None and svec(a[0]) == ("int", r), "idxassign needs a static index of length %d" % r)
        return BOOL0
    if name[:5] in ("prArr", "prScl") and name[5:] in PR:
        k, r = arr(a[0])
        need(k == PR[name[5:]] and (name.startswith("prArr") or r == 0), name)
        return a[0]
    raise TypeErr("operator %s is not modelled" % name)


def literal_type(v):
    if isinstance(v, bool):
        return ("S", "bool", int(v))
    if isinstance(v, int):
        return ("S", "int", v)
    return DBL0


def vector_type(ts):
    for k in ("int", "bool"):
        if any(t == A(k, 0) or (t[0] == "S" and t[1] == k) for t in ts):
            need(all(leq(t, A(k, 0)) for t in ts), "mixed vector literal")
            if len(ts) == 1 and ts[0][0] == "S":
                return ("SV", k, ts[0][2])
            return ("V", k, len(ts))
    need(all(t == ts[0] for t in ts) and ts[0][0] == "A" and ts[0][2] == 0, "vector literal")
    return A(ts[0][1], 1)


def check(e, env):
    """The type of expression e (parsed by tail_model.Parser with types kept)."""
    tag = e[0]
    if tag == "lit":
        return literal_type(e[1])
    if tag == "vec":
        return vector_type([check(x, env) for x in e[1]])
    if tag == "var":
        return env[e[1]] if e[1] in env else op_value(e[1])
    if tag == "let":
        t = check(e[2], env)
        need(leq(t, e[4]), "let %s: %r is not a subtype of the annotation %r" % (e[1], t, e[4]))
        return check(e[3], dict(env, **{e[1]: e[4]}))
    if tag == "fn":
        return ("F", e[3], check(e[2], dict(env, **{e[1]: e[3]})))
    return op_type(e[1], [check(x, env) for x in e[2]])
