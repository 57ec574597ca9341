//! Kernel-level `power` loops (two steps per trip over a buffer pair, an odd count ending in the
//! second buffer, repeated steps sharing their local arrays) agree with the oracle at -O0 and
//! -O2, for even and odd counts, at block and thread level, with steps that read other
//! work-items' elements (a reversal: wrong if a step overwrote what it reads). Skips (with a
//! message) when there is no OpenCL platform.

mod support;

use compiler::{compile_fcl, DEFAULT_BLOCK_SIZE};

/// A block-level power: each step forces `3x + i` into local memory, then reverses it.
fn block_power(n: i32) -> String {
    format!(
        "fun rev a = generate (lengthPull a) (fn j => index a (lengthPull a - 1 - j))
fun step i a = do<block> {{ t <- force<block> (push<block> (generate (lengthPull a) (fn j => index a j * 3 + i))) ; return<block> (push<block> (rev t)) }}
fun chunk b = power<block> {n} step (return<block> (push<block> (generate 8 (fn j => b * 8 + j))))
sig main : Program <grid> unit
val main = do<grid>
  {{ p <- concat<block> 8 (generate 3 (fn b => do<block> {{ r <- chunk b ; return<block> (push<block> r) }}))
  ; a <- forceAndPrint 24 p
  ; return<grid> ()
  }}
"
    )
}

/// A thread-level power inside each work-item: a private array of 4, rotated and bumped.
fn thread_power(n: i32) -> String {
    format!(
        "fun step i a = return<thread> (push<thread> (generate 4 (fn j => index a ((j + 1) % 4) + i * j)))
fun cell t = power<thread> {n} step (return<thread> (push<thread> (generate 4 (fn j => t * 4 + j))))
sig main : Program <grid> unit
val main = do<grid>
  {{ p <- concat<block> 4 (generate 2 (fn b => return<block> (push<block> (generate 4 (fn t => b * 4 + t)))))
  ; q <- force<grid> p
  ; s <- concat<block> 16 (generate 2 (fn b => concat<thread> 4 (generate 4 (fn t => do<thread> {{ c <- cell (index q (b * 4 + t)) ; return<thread> (push<thread> c) }}))))
  ; a <- forceAndPrint 32 s
  ; return<grid> ()
  }}
"
    )
}

#[test]
fn kernel_level_power_loops_agree_with_the_oracle() {
    let Some(rt) = support::runtime() else {
        return;
    };
    let mut compared = 0;
    for n in [2, 3, 4, 5] {
        for src in [block_power(n), thread_power(n)] {
            let (want, main) = support::oracle("power.fcl", &src);
            assert!(!want.is_empty());
            compared +=
                support::assert_compiled_agree(&rt, &src, &main, &want, &mut |main, opt| {
                    compile_fcl(main, opt, DEFAULT_BLOCK_SIZE)
                        .unwrap_or_else(|e| panic!("{src}\n{e}"))
                });
        }
    }
    assert_eq!(compared, 16);
}
