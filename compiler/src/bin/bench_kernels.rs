//! Hand-written OpenCL kernels against the ones tailfcl generates (at -O2), on 2^24 ints
//! (matmul on 256x256 doubles), plus host memcpy bandwidth. Prints device times (best of 3,
//! from profiling events) and generated/hand ratios. Run with
//! `cargo run --release -p compiler --bin bench_kernels [--device N] [--log2n K]`.

use compiler::exec::execute;
use compiler::runtime::{Arg, BuiltProgram, DeviceBuffer, Runtime, RuntimeError};
use compiler::{compile_fcl, OptLevel, DEFAULT_BLOCK_SIZE};
use semantics::fcl::lower::load_program;
use std::time::Instant;

const HAND: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void fill(__global int* a, int n) { int i = get_global_id(0); if (i < n) a[i] = i; }
__kernel void filld(__global double* a, int n) { int i = get_global_id(0); if (i < n) a[i] = (double)(i % 7); }
__kernel void copy(__global const int* a, __global int* b, int n) {
  int i = get_global_id(0); if (i < n) b[i] = a[i]; }
__kernel void reverse(__global const int* a, __global int* b, int n) {
  int i = get_global_id(0); if (i < n) b[i] = a[n - 1 - i]; }
__kernel void transpose_naive(__global const int* a, __global int* b, int rows, int cols) {
  int i = get_global_id(0); if (i < rows * cols) { int r = i / cols, c = i % cols; b[c * rows + r] = a[i]; } }
__kernel void transpose_tiled(__global const int* a, __global int* b, int rows, int cols) {
  __local int tile[16][17];
  int g = get_group_id(0), l = get_local_id(0);
  int tilesX = cols / 16, tx = g % tilesX, ty = g / tilesX, lx = l % 16, ly = l / 16;
  tile[ly][lx] = a[(ty * 16 + ly) * cols + tx * 16 + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  b[(tx * 16 + ly) * rows + ty * 16 + lx] = tile[lx][ly]; }
__kernel void reduce_part(__global const int* a, __global int* out, int n) {
  __local int s[256];
  int l = get_local_id(0), i = get_global_id(0);
  s[l] = i < n ? a[i] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 128; k > 0; k >>= 1) { if (l < k) s[l] += s[l + k]; barrier(CLK_LOCAL_MEM_FENCE); }
  if (l == 0) out[get_group_id(0)] = s[0]; }
__kernel void scan_block(__global const int* a, __global int* b, __global int* sums, int n) {
  __local int s[2][256];
  int l = get_local_id(0), i = get_global_id(0), p = 0;
  s[0][l] = i < n ? a[i] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 1; k < 256; k <<= 1) {
    s[1 - p][l] = l >= k ? s[p][l] + s[p][l - k] : s[p][l];
    p = 1 - p;
    barrier(CLK_LOCAL_MEM_FENCE); }
  if (i < n) b[i] = s[p][l];
  if (l == 255) sums[get_group_id(0)] = s[p][l]; }
__kernel void scan_add(__global int* b, __global const int* sums, int n) {
  int i = get_global_id(0), g = get_group_id(0); if (i < n && g > 0) b[i] += sums[g - 1]; }
__kernel void matmul(__global const double* A, __global const double* B, __global double* C, int N) {
  __local double As[16][16], Bs[16][16];
  int g = get_group_id(0), l = get_local_id(0), tiles = N / 16;
  int lx = l % 16, ly = l / 16, row = (g / tiles) * 16 + ly, col = (g % tiles) * 16 + lx;
  double acc = 0.0;
  for (int t = 0; t < tiles; t++) {
    As[ly][lx] = A[row * N + t * 16 + lx];
    Bs[ly][lx] = B[(t * 16 + ly) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 16; k++) acc += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE); }
  C[row * N + col] = acc; }
"#;

const BS: usize = 256;

struct Hand<'a> {
    rt: &'a Runtime,
    p: BuiltProgram,
}

impl Hand<'_> {
    fn buf(&self, bytes: usize) -> DeviceBuffer {
        self.rt.alloc(bytes).expect("alloc")
    }
    fn run(&self, k: &str, items: usize, args: &[Arg]) -> u64 {
        self.rt
            .launch(&self.p, k, items.div_ceil(BS), BS, args)
            .expect("launch")
    }
}

fn best(f: &mut dyn FnMut() -> u64) -> u64 {
    (0..3).map(|_| f()).min().unwrap_or(0)
}

/// Device time of a generated program, without its first `skip` launches (input generation).
fn generated(rt: &Runtime, src: &str, skip: usize) -> Result<u64, String> {
    let p = load_program(&[("bench.fcl".into(), src.to_string())]).map_err(|e| format!("{e:?}"))?;
    let m = compile_fcl(&p.main, OptLevel::O2, DEFAULT_BLOCK_SIZE).map_err(|e| e.to_string())?;
    let mut times = Vec::new();
    for _ in 0..3 {
        let r = execute(&m, rt).map_err(|e| e.to_string())?;
        times.push(r.launches.iter().skip(skip).map(|(_, ns)| ns).sum::<u64>());
    }
    Ok(times.into_iter().min().unwrap_or(0))
}

fn example_defs(name: &str) -> String {
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../examples/fcl/{name}.fcl")),
    )
    .expect("example");
    src[..src.find("sig main").unwrap_or(src.len())].to_string()
}

const INPUT: &str = "
fun chunked f arr = splitUp 256 arr
  |> mapPull (fn c => return<block> (push<block> (f c))) |> concat<block> 256
";

fn main_with(n: usize, body: &str) -> String {
    format!(
        "{INPUT}\nsig main : Program <grid> unit\nval main = do<grid>\n  {{ ap <- chunked (fn c => c) (generate {n} (fn i => i))\n  ; a <- force<grid> ap\n  ; {body}\n  ; return<grid> ()\n  }}\n"
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let opt = |flag: &str, d: usize| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let device = opt("--device", 0);
    let log2n = opt("--log2n", 24);
    let rt = match Runtime::new(device) {
        Ok(rt) => rt,
        Err(RuntimeError::NoPlatform(m)) => {
            println!("skipped: no OpenCL platform ({m})");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    println!("device: {}", rt.device);
    let n = 1usize << log2n;
    let side = 1usize << (log2n / 2);
    let mm = 256usize;

    // host memcpy bandwidth
    let src = vec![1u8; n * 4];
    let mut dst = vec![0u8; n * 4];
    let t = Instant::now();
    for _ in 0..5 {
        dst.copy_from_slice(&src);
    }
    let secs = t.elapsed().as_secs_f64() / 5.0;
    println!(
        "host memcpy: {:.2} GB/s ({} MiB)",
        2.0 * (n * 4) as f64 / secs / 1e9,
        (n * 4) >> 20
    );

    let hand = Hand {
        p: rt.build(HAND).expect("hand-written kernels build"),
        rt: &rt,
    };
    let a = hand.buf(n * 4);
    let b = hand.buf(n * 4);
    let sums = hand.buf(n.div_ceil(BS) * 4);
    let sums2 = hand.buf(n.div_ceil(BS * BS).max(1) * 4);
    let sums3 = hand.buf(4);
    let ni = n as i32;
    hand.run("fill", n, &[Arg::Buffer(&a), Arg::Int(ni)]);

    let rev = example_defs("reverse");
    let tr = example_defs("transpose");
    let red = example_defs("reduce");
    let scan = example_defs("scan").replace("let lgChunkSize = 2 in", "let lgChunkSize = 8 in");
    let mat = example_defs("matmul");
    let cases: Vec<(&str, u64, String, usize)> = vec![
        (
            "copy",
            best(&mut || hand.run("copy", n, &[Arg::Buffer(&a), Arg::Buffer(&b), Arg::Int(ni)])),
            main_with(n, "rp <- chunked (fn c => c) a; r <- force<grid> rp"),
            1,
        ),
        (
            "reverse",
            best(&mut || {
                hand.run(
                    "reverse",
                    n,
                    &[Arg::Buffer(&a), Arg::Buffer(&b), Arg::Int(ni)],
                )
            }),
            format!(
                "{rev}{}",
                main_with(n, "r <- revDistribute 256 a; s <- force<grid> r")
            ),
            1,
        ),
        (
            "transpose naive",
            best(&mut || {
                let args = [
                    Arg::Buffer(&a),
                    Arg::Buffer(&b),
                    Arg::Int(side as i32),
                    Arg::Int(side as i32),
                ];
                hand.run("transpose_naive", n, &args)
            }),
            format!(
                "{tr}{}",
                main_with(
                    n,
                    &format!("rp <- chunked (fn c => c) (transpose {side} {side} a); r <- force<grid> rp")
                )
            ),
            1,
        ),
        (
            "transpose tiled",
            best(&mut || {
                let args = [
                    Arg::Buffer(&a),
                    Arg::Buffer(&b),
                    Arg::Int(side as i32),
                    Arg::Int(side as i32),
                ];
                hand.run("transpose_tiled", n, &args)
            }),
            format!(
                "{tr}{}",
                main_with(
                    n,
                    &format!("r <- transposeTiled 16 {side} {side} a; s <- force<grid> r")
                )
            ),
            1,
        ),
        (
            "reduce partial",
            best(&mut || {
                hand.run(
                    "reduce_part",
                    n,
                    &[Arg::Buffer(&a), Arg::Buffer(&sums), Arg::Int(ni)],
                )
            }),
            format!(
                "{red}{}",
                main_with(n, "r <- reducePart addi a; s <- force<grid> r")
            ),
            1,
        ),
        (
            "reduce full",
            best(&mut || {
                let mut t = hand.run(
                    "reduce_part",
                    n,
                    &[Arg::Buffer(&a), Arg::Buffer(&sums), Arg::Int(ni)],
                );
                let (mut len, mut from, mut to) = (n.div_ceil(BS), &sums, &sums2);
                while len > 1 {
                    t += hand.run(
                        "reduce_part",
                        len,
                        &[Arg::Buffer(from), Arg::Buffer(to), Arg::Int(len as i32)],
                    );
                    len = len.div_ceil(BS);
                    (from, to) = (
                        to,
                        if std::ptr::eq(to, &sums2) {
                            &sums3
                        } else {
                            &sums2
                        },
                    );
                }
                t
            }),
            format!("{red}{}", main_with(n, "s <- reduceFull addi a")),
            1,
        ),
        (
            "scan",
            best(&mut || {
                let g1 = n.div_ceil(BS);
                let mut t = hand.run(
                    "scan_block",
                    n,
                    &[
                        Arg::Buffer(&a),
                        Arg::Buffer(&b),
                        Arg::Buffer(&sums),
                        Arg::Int(ni),
                    ],
                );
                t += hand.run(
                    "scan_block",
                    g1,
                    &[
                        Arg::Buffer(&sums),
                        Arg::Buffer(&sums),
                        Arg::Buffer(&sums2),
                        Arg::Int(g1 as i32),
                    ],
                );
                t += hand.run(
                    "scan_add",
                    n,
                    &[Arg::Buffer(&b), Arg::Buffer(&sums), Arg::Int(ni)],
                );
                t
            }),
            format!(
                "{scan}{}",
                main_with(n, "r <- scan addi 0 a; s <- force<grid> r")
            ),
            1,
        ),
    ];
    let ma = hand.buf(mm * mm * 8);
    let mb = hand.buf(mm * mm * 8);
    let mc = hand.buf(mm * mm * 8);
    hand.run(
        "filld",
        mm * mm,
        &[Arg::Buffer(&ma), Arg::Int((mm * mm) as i32)],
    );
    hand.run(
        "filld",
        mm * mm,
        &[Arg::Buffer(&mb), Arg::Int((mm * mm) as i32)],
    );
    let mm_hand = best(&mut || {
        hand.run(
            "matmul",
            mm * mm,
            &[
                Arg::Buffer(&ma),
                Arg::Buffer(&mb),
                Arg::Buffer(&mc),
                Arg::Int(mm as i32),
            ],
        )
    });
    let mm_src = format!(
        "{mat}{INPUT}\nsig main : Program <grid> unit\nval main = do<grid>\n  {{ ap <- chunked (fn c => c) (generate {} (fn i => i2d (i % 7)))\n  ; a <- force<grid> ap\n  ; bp <- chunked (fn c => c) (generate {} (fn i => i2d (i % 7)))\n  ; b <- force<grid> bp\n  ; c <- matmulTiled addd muld 0.0 16 {mm} {mm} {mm} a b\n  ; d <- force<grid> c\n  ; return<grid> ()\n  }}\n",
        mm * mm,
        mm * mm
    );
    println!(
        "{:<18} {:>12} {:>12} {:>8}",
        "kernel", "hand ms", "tailfcl ms", "ratio"
    );
    let mut all = cases;
    all.push(("matmul f64 256^2", mm_hand, mm_src, 2));
    for (name, hand_ns, src, skip) in all {
        let h = hand_ns as f64 / 1e6;
        match generated(&rt, &src, skip) {
            Ok(g) => {
                let g = g as f64 / 1e6;
                println!("{name:<18} {h:>12.3} {g:>12.3} {:>8.2}", g / h.max(1e-9));
            }
            Err(e) => println!("{name:<18} {h:>12.3} {:>12} ({e})", "-"),
        }
    }
    let copy_gbs = |ns: u64| 2.0 * (n * 4) as f64 / ns.max(1) as f64;
    let c = best(&mut || hand.run("copy", n, &[Arg::Buffer(&a), Arg::Buffer(&b), Arg::Int(ni)]));
    println!("device copy bandwidth (hand): {:.2} GB/s", copy_gbs(c));
}
