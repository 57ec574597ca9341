"""Writes the example table of paper-examples/README.md from the metadata below and the committed
expected files (the part of README.md between the two TABLE markers is replaced).

Columns: example, seed and place in the paper, what it shows, expected result (abridged), how the
expected value was computed, status, and cost/work for FCL examples (filled from the oracle once
it runs: `tailfcl run --stats`; until then "pending oracle").
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")

# name: (place in the paper, what it shows, how the expected value was computed, status)
# Status "ok" = the program is the paper's example as printed (repaired only where the text is not
# valid syntax, as noted); "seed error" = the paper is wrong here, the program keeps the printed
# version and a "-fixed" program next to it gives the correction.
META = {
    "seed004-thesis": {
        "signal": ("Example 3.1, Fig. 3.1", "APEX signal: diff, clamp, sum (Fig. 3.1 with its OCR damage repaired: addy->addd, sum->zipWith, ~ -> -)", "seed004_tail.signal: the APL definition evaluated in Python (apltail's reduce order)", "ok (repaired OCR)"),
        "signal-prints": ("Example 3.1", "the intermediate vectors of signal, printed with prArrI/prArrD", "seed004_tail.signal_prints", "ok"),
        "signal-as-printed": ("Fig. 3.1 verbatim", "the OCR-damaged figure (addy, sum, unbalanced parentheses) does not parse", "by inspection: unknown operators and unbalanced parentheses", "seed error (OCR); corrected: signal.tail"),
        "inner-product-fig37": ("Figs. 3.5, 3.7", "A +.x B by replicate-and-transpose, then x/ +/ R", "matrix product from its definition, 23*55*52", "ok"),
        "inner-product-fig36": ("Figs. 3.5, 3.6", "the unoptimised TAIL of the same inner product (shape arithmetic with V operators)", "as fig37 (Fig. 3.5 states 65780)", "ok (~ read as -)"),
        "inner-product-matrix": ("Figs. 3.5, 3.8", "A, B, R and the row sums 23 55 52 of Fig. 3.5, printed as matrices", "matrix product from its definition, checked against the transposes of Fig. 3.7", "ok"),
        "transpose-double-reduce": ("README-style TAIL", "transp then two reduce(addi): sum of 1..20", "sum 1..20", "ok"),
        "dotpi": ("section 3.1.2", "dotpi = reduce(addi, 0, zipWith(muli, x, y)) on vectors", "by hand: 4+10+18", "ok"),
        "dotpi-matrix": ("section 3.1.2", "dotpi on matrices reduces the last axis (one dot product per row)", "row-wise dot products", "ok"),
        "dotpi-mismatch": ("section 3.1.2", "dotpi on extents that do not match is a run-time error", "zipWith needs equal shapes (docs/tail.md 5.9)", "ok"),
        "dotp": ("section 3.1.2", "dotp generalised over (add, mul): max-plus and (+, x) on doubles", "by hand", "ok"),
        "iota-negative": ("rule 3.35", "iota of a negative number goes to err", "rule 3.35", "ok"),
        "reduce-order": ("rule 3.37 vs apltail", "reduce/scan apply f(new, acc): reduce(subi) gives 2, the digit fold 123", "apltail's order (docs/tail.md 5.9), modelled in common.reduce", "thesis 3.37 differs (right fold); outputs follow apltail"),
        "shape-ops": ("rules 3.38-3.44", "reshape, take with negative count, transp, transp2 3-cycle, rotate, vrotate, cons on a matrix", "common.py operator models, checked against the spec's examples", "ok (3.38/3.40/3.44 as repaired in the spec)"),
        "power": ("rules 3.59-3.60", "power and powerScl", "iterated by hand", "ok"),
        "index-cube": ("section 3.1 (index)", "plane <- cube[;4;] is index(2, 4, cube) (idxS), and the same through transp2, drop, take", "the plane selected by its definition (cube = 10 20 30 reshape iota 6000)", "ok (the text's `10 20 30 reshape 6000` read as reshape of iota 6000)"),
        "update": ("rule 3.57", "update (idxassign, 1-based) writes in place and yields tt", "by hand", "ok"),
        "update-out-of-range": ("rule 3.58", "update outside the array goes to err", "index 3 on an extent of 2", "ok"),
        "al-iota-map": ("Example 2.1", "iota and map written with generate; squares of 0..999", "x*x for x < 1000", "ok"),
        "al-scan": ("Examples 2.5, 2.6", "exclusive scanl (+) 0 and inclusive scanl1 (+) of 5 1 4 8 0 7 1 3", "running sums; asserted equal to the thesis's stated results", "ok (the prelude's scanl also yields the total: printed with 8 and 9 elements)"),
        "al-backpermute": ("Examples 2.7, 2.8", "backpermute: replicate (i mod n) and gather", "list repetition and indexing", "ok (mod written %)"),
        "reverse": ("section 5.2.1", "reverse on pull arrays, pushed by one block", "reversed 0..9", "ok (length -> lengthPull)"),
        "rev-distribute": ("section 5.2.1", "revBlock + revDistribute: reverse inside blocks and the block order (machine 4x4)", "reversed 0..15", "ok (map -> mapPull)"),
        "transpose-naive": ("section 5.2.2", "naive transpose on a square matrix", "transpose by definition", "ok (two-binding let chained)"),
        "transpose-naive-rect-as-printed": ("section 5.2.2", "the printed index j*rows+i on a 2x3 matrix", "the printed formula evaluated in Python", "seed error: not a transpose for rows != cols; corrected: transpose-naive-rect-fixed"),
        "transpose-naive-rect-fixed": ("section 5.2.2", "corrected index j*cols+i", "transpose by definition", "correction"),
        "transpose-tiled": ("Fig. 5.2, section 5.4.1", "transposeTiled through shared memory with splitGrid/concatGrid, 4x4 in 2x2 tiles", "transpose by definition", "ok for square matrices (concatGrid gets width cols; the transpose has width rows)"),
        "splitgrid": ("section 5.4.1", "splitGrid's tiles, concatenated in tile order", "tiles by definition", "ok (let ... in in repaired)"),
        "concatgrid-roundtrip": ("section 5.4.1", "concatGrid inverts splitGrid (4x6, tiles 2x2)", "identity", "ok (Program <l+l> read 1+l)"),
        "reduce-block": ("section 5.2.3", "block tree reduction with while and step (sum of 0..15)", "sum", "ok (step's missing parameter f added; step's signature widened to its inferred type)"),
        "reduce-block-odd": ("section 5.2.3", "the same on 5 elements loses one: halve+zipWith needs power-of-two lengths", "the halving algorithm simulated in Python (6, not 10)", "limitation of the algorithm as printed"),
        "reduce-part": ("section 5.2.3", "reducePart: one partial sum per block (chunk size as parameter)", "sums of chunks of 8", "ok (concat 1 -> concat<block> 1)"),
        "reduce-part-blocksize": ("section 5.2.3", "reducePart as printed, chunk 2 * #BlockSize = 512", "sums of chunks of 512", "ok (#BlockSize = 256, docs/fcl.md 4.4)"),
        "reduce-full": ("section 5.2.3", "reduceFull iterates reducePart with while<grid> (64 -> 16 -> 4 -> 1)", "sum of 0..63", "ok"),
        "foldl-fig53": ("Fig. 5.3", "foldl with seqfor, left-to-right order shown with subtraction", "left fold in Python", "ok"),
        "scanl-fig53": ("Fig. 5.3", "scanl with seqfor (length n+1)", "left scan in Python", "ok"),
        "matmul-tiled": ("section 5.4.2, Fig. 5.16", "tiled matrix multiplication (4x6 by 6x2, 2x2 tiles) with dotp, matmulBlock, zipWithPush, matmulRect, power", "matrix product by definition", "repaired: signatures widened to the inferred types (FCL checks equality), dotp sig ['d]/['c], do-let in matmulRect, mapPushIx, matmulRect's pull result pushed for concatGrid; matmulBlock's j*p+col is right only for square tiles"),
        "scan-sklansky": ("section 5.4.3", "grid scan: scanChunked, intermediateSums, adjust (chunk 4; sklansky written here)", "running sums", "repaired: do-let inlined, lgChunkSize a parameter (with 8 it is right only up to 65536 elements)"),
    },
    "seed000-push": {
        "pull-fusion": ("section 2.2", "zipWith f (map g a) (map h b) fuses; length min l1 l2", "Pull model (length, index function)", "ok"),
        "pull-halve": ("Fig. 5", "halve of an odd length: parts of 3 and 4", "Pull model", "ok"),
        "pull-reverse": ("Fig. 5", "pull reverse", "reversed list", "ok"),
        "pull-rotate": ("Fig. 5", "pull rotate r reads (ix + r) mod l: turns LEFT", "Pull model", "ok (direction differs from push rotate)"),
        "push-reverse": ("Fig. 6", "push reverse: the writer goes to n-1-i", "Push model (index, value) writes", "ok"),
        "push-rotate": ("Fig. 6", "push rotate d writes to (i + d) mod n: turns RIGHT", "Push model", "seed inconsistency: pull rotate turns left, push rotate right"),
        "push-append": ("Fig. 6", "(++) with the second writer offset by l1", "Push model", "ok"),
        "push-interleave": ("Fig. 6", "interleave writes 2i and 2i+1", "Push model", "ok"),
        "push-interleave-unequal": ("Fig. 6", "interleave of lengths 4 and 3 writes past 2*min m n", "Push model: write to 6 in a 6-element array", "seed error: out of range for unequal lengths"),
        "push-ex1": ("section 6", "ex1 = rotate 3 . reverse . map (+1) fused: writes to ((10-1)-i+3) % 10", "Push model", "ok"),
        "push-imap": ("Fig. 6", "imap passes the index (mapPush)", "by definition", "ok"),
        "index-append-as-printed": ("section 5", "index (Append l p1 p2) with ix > l reads p1 at l", "by inspection: index 3 of a 3-element array", "seed error: ix > l should be ix >= l; corrected: index-append-fixed"),
        "index-append-fixed": ("section 5", "index on Append with ix >= l", "list concatenation", "correction"),
        "index-ex1-as-printed": ("sections 5, 6", "index (Rotate 3 ...) with truncating (ix - 3) % 10: negative index", "C remainder of -3 by 10 is -3, index 12", "seed error: needs floor modulo; corrected: index-ex1-fixed"),
        "index-ex1-fixed": ("sections 5, 6", "the same with floor modulo agrees with push-ex1", "Pull model with Python's floor %", "correction"),
        "index-interleave": ("section 5", "index on Interleave (ix mod 2, ix div 2)", "Pull model", "ok"),
        "saxpy": ("section 6", "saxpy 2.0 xs ys on doubles", "Python floats, %.5f", "ok"),
        "saxpy-ex1": ("section 6", "saxpy with ex1 applied to ys through index", "Python floats with floor modulo", "ok (with the floor-modulo fix)"),
        "half-cleaner": ("section 2.5", "halfCleaner: halve, zip, swap, unzip, (++)", "compare-and-swap by definition", "ok"),
    },
    "seed001-talk": {
        "sum": ("slide: Pull arrays", "sum as a sequential loop (forLoop / foldl)", "sum 1..10", "ok"),
        "scprod": ("slide: Pull array fusion", "scProd a b = sum (zipWith (*) a b) (min length)", "by hand", "ok"),
        "pull-concat": ("slide: Pull concatenation", "conditional pull (++)", "list concatenation", "ok"),
        "push-concat": ("slide: Push arrays", "push (++) with offset l", "Push model", "ok (offset l, see as-printed)"),
        "push-concat-as-printed": ("slide: Push arrays", "the slide's offset i+1: overlapping writes", "Push model: place 1 written twice", "seed error: i+1 should be i+l; corrected: push-concat"),
        "dup": ("slide: Push arrays", "dup writes every element twice", "by definition", "ok"),
        "cobind": ("slide: Pull arrays are comonads", "rotation table (cobind), cobind counit = id, cobind sum", "rotateL by definition; table asserted equal to the slide", "ok"),
        "force-reuse": ("slide: Combining Pull and Push", "pullToPush, force to memory, index the forced array", "by definition", "ok"),
        "zipwith": ("slide: Pull arrays", "zipWith with min length", "by definition", "ok"),
    },
    "seed002-moa": {
        "psi-plane": ("section 2", "<1> psi A: the plane 20..39 of the 3x5x4 array", "psi from its definition", "ok"),
        "psi-vector": ("section 2", "<2 1> psi A = <44 45 46 47>", "psi; asserted equal to the paper", "ok"),
        "psi-scalar": ("section 2", "<2 1 3> psi A = 47", "psi; asserted equal to the paper", "ok"),
        "psi-gamma": ("Definition 1", "full psi is a[gamma(s, p)] on the ravel", "gamma by definition", "ok"),
        "take-reverse": ("section 2 (psi reduction)", "<1 2> psi (2 Delta Phi A) = <1 2> psi A; <0> psi Phi A = <2> psi A", "psi, take, reverse by their MoA definitions", "ok"),
        "moa-x": ("equation (4)", "X = (2 Delta Phi A) x (1 Nabla Phi A) and its shape", "MoA definitions", "seed error: the paper writes rho X = <2 4 5>; it is <2 5 4>"),
        "moa-x-planes": ("equation (6)", "<i> psi X = (<2-i> psi A) x (<1-i> psi A)", "asserted plane by plane", "ok"),
        "moa-onf": ("equation (9)", "the ONF a[(2-i)*20 + iota 20] x a[(1-i)*20 + iota 20]", "flat indexing; asserted equal to X", "seed error: the paper prints (i-1) for the second offset; (1-i) is right"),
        "pull-take-drop-rotate": ("Fig. 2", "pull take/drop/rotate (rotate turns left); TAIL's take pads where the pull take clamps", "by definition", "ok (take 8 of 6: TAIL pads with 0, the paper's pull take gives 6 elements)"),
        "map-fusion": ("section 3.1", "map (*2) (map (*5) arr) = map (*10) arr", "by definition", "ok"),
    },
    "seed003-dps": {
        "vector-add": ("section 4.1.1", "Map(x.0 + x.1, Zip(Tuple(a, b)))", "by definition", "ok"),
        "vector-add-dps": ("section 4.1.1", "the DPS form Build(n, d[i] := a[i] + b[i]) in FCL", "by definition", "ok"),
        "three-add": ("section 7 (3Add)", "3Add = Map(+) <| Zip(v0, Map(+) <| Zip(v1, v2))", "by definition", "ok"),
        "concat-source": ("section 4.1.2", "Map(Id, Concat^S(Tuple(a, b)))", "list concatenation", "ok"),
        "concat-source-dps": ("section 4.1.2", "source-view concat: one loop with i < n", "list concatenation", "ok"),
        "concat-dest": ("section 4.1.2", "destination-view concat: two Builds, the second writing d[i + n]", "list concatenation", "ok"),
        "lift-map": ("section 2.2", "Map(fn x. x * x, arr)", "by definition", "ok"),
        "lift-reduce": ("section 2.2", "Reduce(+, 0, arr), and of an empty array", "by hand (exact binary fractions)", "ok"),
        "lift-split": ("section 2.2", "Split(2, [x0..x3]) = [[x0, x1], [x2, x3]]", "by definition", "ok"),
        "lift-join": ("section 2.2", "Join flattens", "by definition", "ok"),
        "lift-at": ("section 2.2", "At(0, arr) and the last element", "by definition", "ok"),
        "lift-zip": ("section 2.2", "Zip, Fst, Snd, and Map over the zipped pairs", "by definition", "ok"),
        "lift-slide": ("section 2.2", "Slide(3, 1, xs): windows as matrix rows, their sums", "Python slicing", "ok"),
        "cross-product": ("section 7 (Cross)", "a x b with rotations", "the cross-product formula", "ok"),
        "matmul-fixed": ("section 7 (MM)", "A B through replicate and transpose", "matrix product by definition", "correction of MatMul0"),
        "matmul-as-printed": ("section 7 (MM)", "MatMul0 as printed: Map over Transpose(mat0) rows, dot with mat1 rows", "printed formula; asserted equal to (B A) transposed", "seed error: computes (B A)^T, not A B; corrected: matmul-fixed"),
        "pad": ("section 7 (stencils)", "PadS: repeat the first and last element", "by definition", "ok"),
        "jacobi1d": ("section 7 (Jacobi1D)", "3-point average over the clamp-padded vector", "Python floats in the program's addition order", "ok"),
        "jacobi2d": ("section 7 (Jacobi2D)", "5-point stencil 0.2 * (c + w + e + s + n) with PadS2D", "Python floats in the program's order", "ok"),
        "seidel2d-source": ("section 7 (Seidel2D, first method)", "PadS2D then the 3x3 all-ones convolution", "sums of 3x3 windows", "ok"),
        "seidel2d-dest": ("section 7 (Seidel2D, second method)", "convolution of the interior, then PadD of the result", "sums of 3x3 windows, then clamp padding", "note: the two methods give different results (padding input vs output)"),
        "jacobi3d": ("section 7.4", "Jacobi3D 7-point = Map3(Conv3, Slide3(3, 1, src)), no padding, 4x5x6 grid", "7-point sums over interior points", "ok"),
        "jacobi3d-25d": ("section 7.4, Fig. 7.5", "Jacobi3D with 2.5D tiling: blocks over x, threads over y, a sequential seqfor along z (machine 2x3)", "as jacobi3d", "ok (window re-read, not rolled)"),
        "split-dest-as-printed": ("rule (5.37)", "Split^D writes d[i/n][i%m]: overlapping writes", "by inspection: 0 and 2 both go to d[0][0]", "seed error: i/n should be i/m; corrected: split-dest-fixed"),
        "split-dest-fixed": ("rule (5.37)", "Split^D with d[i/m][i%m]", "identity", "correction"),
    },
}


def expected_summary(folder, name):
    base = os.path.join(ROOT, folder, name)
    if os.path.exists(base + ".expected-error"):
        return "error: " + open(base + ".expected-error").read().strip()
    text = open(base + ".expected").read()
    lines = [l for l in text.split("\n") if l.strip()]
    short = lines[-1].strip()
    if len(short) > 40:
        short = short[:37] + "..."
    more = " (+%d lines)" % (len(lines) - 1) if len(lines) > 1 else ""
    return "`" + short.replace("|", "\\|") + "`" + more


def oracle_costs():
    """cost/work per FCL example from oracle-costs.csv (measured with the FCL oracle, see README)."""
    costs = {}
    path = os.path.join(HERE, "oracle-costs.csv")
    if os.path.exists(path):
        for line in open(path).read().splitlines()[1:]:
            test, machine, steps, cost, work, _ = line.split(",")
            costs[test] = "%s / %s (%s)" % (cost, work, machine)
    return costs


def table():
    costs = oracle_costs()
    rows = ["| example | seed: place | shows | expected (last line) | computed by | status | FCL cost / work (machine) |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for folder in sorted(META):
        for name, (place, shows, how, status) in META[folder].items():
            ext = ".fcl" if os.path.exists(os.path.join(ROOT, folder, name + ".fcl")) else ".tail"
            cost = costs.get(folder + "/" + name, "pending oracle") if ext == ".fcl" else "n/a"
            engine = ("FCL oracle: as expected" if folder + "/" + name in costs else "FCL oracle: pending") \
                if ext == ".fcl" else "TAIL engine: pending (model and type check: as expected)"
            rows.append("| [%s](%s/%s%s) | %s: %s | %s | %s | %s | %s; %s | %s |" % (
                name, folder, name, ext, folder.split("-")[0], place, shows,
                expected_summary(folder, name), how, status, engine, cost))
    return "\n".join(rows) + "\n"


def main():
    # Every example has metadata, and every metadata entry an example.
    for folder in META:
        progs = {os.path.splitext(f)[0] for f in os.listdir(os.path.join(ROOT, folder))
                 if f.endswith((".tail", ".fcl"))}
        assert progs == set(META[folder]), (folder, progs ^ set(META[folder]))
    path = os.path.join(ROOT, "README.md")
    text = open(path).read()
    start, end = "<!-- TABLE START -->\n", "<!-- TABLE END -->\n"
    head, rest = text.split(start)
    _, tail = rest.split(end)
    new = head + start + table() + end + tail
    if "--check" in sys.argv[1:]:
        if new != text:
            print("paper-examples/README.md: the example table is out of date (run make_readme.py)",
                  file=sys.stderr)
            sys.exit(1)
        return
    open(path, "w").write(new)


if __name__ == "__main__":
    main()
