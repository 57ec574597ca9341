//! Programs whose -O2 kernels change their local-memory layout or barriers (a 16x16 tiled
//! transpose: padded tile rows, compiled as for a GPU, its tile forwarded, compiled as for a CPU;
//! a reduction: its staged input forwarded on a CPU; a 16x16 tiled matrix multiplication:
//! merged tile loads) agree with the oracle at -O0 and -O2. Skips (with a message) when there is no OpenCL platform.

mod support;

use compiler::{compile_fcl_for_device, OptLevel, DEFAULT_BLOCK_SIZE};
use support::{example_defs as defs, main_of};

#[test]
fn tiled_kernels_agree_with_the_oracle() {
    let Some(rt) = support::runtime() else {
        return;
    };
    let programs = [
        format!(
            "{}{}",
            defs("transpose"),
            main_of(
                "t <- transposeTiled 16 32 64 (generate 2048 (fn i => i * 7 % 1000))\n  ; a <- forceAndPrint 2048 t"
            )
        ),
        format!(
            "{}{}",
            defs("reduce"),
            main_of("s <- reduceFull addi (generate 4096 (fn i => i * 3 % 17 - 8))\n  ; r <- computeInSingleBlock (generate 1 (fn i => s))\n  ; a <- forceAndPrint 1 r")
        ),
        format!(
            "{}{}",
            defs("matmul"),
            main_of(
                "c <- matmulTiled addi muli 0 16 32 32 32 (generate 1024 (fn i => i % 13)) (generate 1024 (fn i => i % 5 - 2))\n  ; a <- forceAndPrint 1024 c"
            )
        ),
    ];
    // compiled as for a device with banked local memory (a GPU) and as for one whose local
    // memory is ordinary memory (a CPU), whatever runs it
    let mut banked = rt.device.clone();
    banked.dedicated_local_mem = true;
    let mut cpu = rt.device.clone();
    cpu.dedicated_local_mem = false;
    let (mut padded, mut forwarded) = (false, false);
    for src in &programs {
        let (want, main) = support::oracle("tiles.fcl", src);
        for device in [&banked, &cpu] {
            support::assert_compiled_agree(&rt, src, &main, &want, &mut |main, opt| {
                let m = compile_fcl_for_device(main, opt, DEFAULT_BLOCK_SIZE, device)
                    .unwrap_or_else(|e| panic!("{src}\n{e}"));
                padded |= m
                    .kernels
                    .iter()
                    .any(|k| k.locals.iter().any(|(_, _, n)| *n > 256));
                forwarded |= src.contains("transposeTiled")
                    && opt == OptLevel::O2
                    && !device.dedicated_local_mem
                    && m.kernels.iter().all(|k| k.locals.is_empty());
                m
            });
        }
    }
    assert!(
        padded,
        "the transpose's tile has padded rows at -O2 for a GPU"
    );
    assert!(
        forwarded,
        "the transpose's tile is forwarded at -O2 for a CPU"
    );
}
