//! Chapter-5-style programs as core terms (the front end's output shape), used by the tests and by
//! the `fcl-bench` benchmark: reverse, transpose and a tree reduction, each over an input that is
//! first materialised at grid level.

use semantics::fcl::build::*;
use semantics::fcl::core::{Builtin, Expr, Level, Type};

const GRID: Level = Level::GRID;
const BLOCK: Level = Level::BLOCK;

fn ints() -> Type {
    Type::pull(Type::Int)
}

/// `bind<grid> (force<grid> (push<grid> (generate n (fn i => i)))) (fn arr => body)`.
fn with_input(n: i32, body: Expr) -> Expr {
    let input = force(GRID, push(GRID, generate(int(n), fn_int("i", var("i")))));
    bind(GRID, input, lam("arr", ints(), body))
}

/// The last step: print the first `shown` elements of the grid push array `a`, or force it.
fn finish(a: Expr, shown: Option<i32>) -> Expr {
    match shown {
        Some(k) => call(Builtin::ForceAndPrint, vec![int(k), a]),
        None => force(GRID, a),
    }
}

/// `bind<grid> p (fn a => finish a)` for a grid push array program p.
fn then_finish(p: Expr, shown: Option<i32>) -> Expr {
    bind(
        GRID,
        p,
        lam("a", Type::push(Type::Int, GRID), finish(var("a"), shown)),
    )
}

/// Block b's chunk of `bs` consecutive elements of `arr`: `generate bs (fn j => arr[b·bs + j])`.
fn chunk(arr: Expr, bs: i32) -> Expr {
    generate(
        int(bs),
        fn_int("j", index(arr, add(mul(var("b"), int(bs)), var("j")))),
    )
}

/// Reverse of `[0..n)`: `interleave<block> bs (fn p => n−1−(fst p·bs + snd p))` over `n/bs`
/// block programs that push their chunk. Prints the first `shown` elements when given.
pub fn reverse(n: i32, bs: i32, shown: Option<i32>) -> Expr {
    let dest = fn_pair(
        "p",
        sub(int(n - 1), add(mul(fst(var("p")), int(bs)), snd(var("p")))),
    );
    let progs = generate(
        int(n / bs),
        fn_int("b", ret(BLOCK, push(BLOCK, chunk(var("arr"), bs)))),
    );
    with_input(
        n,
        then_finish(interleave(BLOCK, int(bs), dest, progs), shown),
    )
}

/// Transpose of the row-major `rows × cols` matrix `[0..rows·cols)`: block b pushes row b, and
/// element (b, j) goes to `j·rows + b` (a scatter that is not a concatenation).
pub fn transpose(rows: i32, cols: i32, shown: Option<i32>) -> Expr {
    let dest = fn_pair("p", add(mul(snd(var("p")), int(rows)), fst(var("p"))));
    let progs = generate(
        int(rows),
        fn_int("b", ret(BLOCK, push(BLOCK, chunk(var("arr"), cols)))),
    );
    with_input(
        rows * cols,
        then_finish(interleave(BLOCK, int(cols), dest, progs), shown),
    )
}

/// A block's tree sum of the pull array `x0` (length a power of two, `2^steps`):
/// `poweri<block> steps (fn i x => pushM (generate (|x|/2) (fn j => x[j] + x[j+|x|/2]))) (pushM x0)`,
/// then the one-element result pushed.
fn block_sum(x0: Expr, steps: i32) -> Expr {
    let half = div(length(var("x")), int(2));
    let step = fn_int(
        "i",
        lam(
            "x",
            ints(),
            let_(
                "h",
                Type::Int,
                half,
                ret(
                    BLOCK,
                    push(
                        BLOCK,
                        generate(
                            var("h"),
                            fn_int(
                                "j",
                                add(
                                    index(var("x"), var("j")),
                                    index(var("x"), add(var("j"), var("h"))),
                                ),
                            ),
                        ),
                    ),
                ),
            ),
        ),
    );
    let init = ret(BLOCK, push(BLOCK, x0));
    let powered = call(Builtin::PowerI(BLOCK), vec![int(steps), step, init]);
    bind(
        BLOCK,
        powered,
        lam("r", ints(), ret(BLOCK, push(BLOCK, var("r")))),
    )
}

fn log2(n: i32) -> i32 {
    31 - n.leading_zeros() as i32
}

/// Sum of `[0..n)`: every block tree-sums a chunk of `bs` (5.87/5.88 at block level), the `n/bs`
/// partial sums are forced, and one block tree-sums them. `n/bs` and `bs` must be powers of two.
pub fn reduction(n: i32, bs: i32, print: bool) -> Expr {
    let nb = n / bs;
    let one = fn_pair("p", fst(var("p")));
    let stage1 = interleave(
        BLOCK,
        int(1),
        one.clone(),
        generate(
            int(nb),
            fn_int("b", block_sum(chunk(var("arr"), bs), log2(bs))),
        ),
    );
    let stage2 = interleave(
        BLOCK,
        int(1),
        one,
        generate(int(1), fn_int("b", block_sum(var("partial"), log2(nb)))),
    );
    let rest = bind(
        GRID,
        force(GRID, var("a1")),
        lam("partial", ints(), then_finish(stage2, print.then_some(1))),
    );
    with_input(
        n,
        bind(GRID, stage1, lam("a1", Type::push(Type::Int, GRID), rest)),
    )
}
