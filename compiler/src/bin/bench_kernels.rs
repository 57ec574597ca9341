//! Hand-written OpenCL kernels against the ones tailfcl generates (at -O2), on 2^24 ints
//! (matmul on 512x512 doubles: at 256x256 a run took 6 ms and the ratio swung from 0.7 to 1.8
//! between processes), plus host memcpy bandwidth. Prints a table of device times
//! (medians of `--reps` runs after one warm-up run, hand and generated alternating, from
//! profiling events), the ratio hand/generated (below 1: the generated kernel is slower), the
//! issue's target and whether it is met, and the effective bandwidth of the data-movement
//! kernels against a plain copy. Run
//! with `cargo run --release -p compiler --bin bench_kernels [--device N] [--log2n K] [--reps R]
//! [--tile T] [--matmul N] [--only WORD] [--show]` (`--tile`: the tiled transpose's tile side,
//! a work-group of T*T work-items, 32 where the device takes 1024, else 16; `--matmul`: the
//! matrices' side, a multiple of 16; `--only`: the cases whose name contains WORD, with the
//! copy; `--show` prints the generated OpenCL C on stderr).

use compiler::exec::{check_local_memory, execute_built};
use compiler::kir::Module;
use compiler::runtime::{Arg, BuiltProgram, DeviceBuffer, Runtime, RuntimeError};
use compiler::{compile_fcl_for_device, OptLevel, DEFAULT_BLOCK_SIZE};
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
__kernel void transpose_gather(__global const int* a, __global int* b, int rows, int cols) {
  int i = get_global_id(0); if (i < rows * cols) b[i] = a[(i % rows) * cols + i / rows]; }
__kernel void transpose_naive(__global const int* a, __global int* b, int rows, int cols) {
  int i = get_global_id(0); if (i < rows * cols) { int r = i / cols, c = i % cols; b[c * rows + r] = a[i]; } }
__kernel void transpose_tiled(__global const int* a, __global int* b, int rows, int cols) {
  __local int tile[16][17];
  int g = get_group_id(0), l = get_local_id(0);
  int tilesX = cols / 16, tx = g % tilesX, ty = g / tilesX, lx = l % 16, ly = l / 16;
  tile[ly][lx] = a[(ty * 16 + ly) * cols + tx * 16 + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  b[(tx * 16 + ly) * rows + ty * 16 + lx] = tile[lx][ly]; }
__kernel void transpose_tiled_direct(__global const int* a, __global int* b, int rows, int cols) {
  int g = get_group_id(0), l = get_local_id(0);
  int tilesX = cols / 16, tx = g % tilesX, ty = g / tilesX, lx = l % 16, ly = l / 16;
  b[(tx * 16 + ly) * rows + ty * 16 + lx] = a[(ty * 16 + lx) * cols + tx * 16 + ly]; }
__kernel void transpose_tiled32_direct(__global const int* a, __global int* b, int rows, int cols) {
  int g = get_group_id(0), l = get_local_id(0);
  int tilesX = cols / 32, tx = g % tilesX, ty = g / tilesX, lx = l % 32, ly = l / 32;
  b[(tx * 32 + ly) * rows + ty * 32 + lx] = a[(ty * 32 + lx) * cols + tx * 32 + ly]; }
// a 512-element chunk per work-group of 256: the first two levels straight from global
// memory, then the tree unrolled between two local arrays (a loop over one array in place runs
// two to three times slower on PoCL), its last step by work-item 0 alone (no barrier)
#define LVL(dst, src, k) if (l < k) dst[l] = src[l] + src[l + k]; barrier(CLK_LOCAL_MEM_FENCE);
__kernel void reduce_part(__global const int* a, __global int* out, int n) {
  __local int p[128], q[64];
  int l = get_local_id(0), g = get_group_id(0), i = g * 512 + l;
  if (l < 128) p[l] = ((i < n ? a[i] : 0) + (i + 256 < n ? a[i + 256] : 0))
    + ((i + 128 < n ? a[i + 128] : 0) + (i + 384 < n ? a[i + 384] : 0));
  barrier(CLK_LOCAL_MEM_FENCE);
  LVL(q, p, 64) LVL(p, q, 32) LVL(q, p, 16) LVL(p, q, 8) LVL(q, p, 4) LVL(p, q, 2)
  if (l == 0) out[g] = p[0] + p[1]; }
// Hillis-Steele steps unrolled between two local arrays (faster on PoCL than a loop over a
// run-time ping-pong index), the last one straight to global memory
#define STEP(d, s, k) d[l] = l >= k ? s[l] + s[l - k] : s[l]; barrier(CLK_LOCAL_MEM_FENCE);
__kernel void scan_block(__global const int* a, __global int* b, __global int* sums, int n) {
  __local int x[256], y[256];
  int l = get_local_id(0), i = get_global_id(0);
  x[l] = i < n ? a[i] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  STEP(y, x, 1) STEP(x, y, 2) STEP(y, x, 4) STEP(x, y, 8) STEP(y, x, 16) STEP(x, y, 32) STEP(y, x, 64)
  int v = l >= 128 ? y[l] + y[l - 128] : y[l];
  if (i < n) b[i] = v;
  if (l == 255) sums[get_group_id(0)] = v; }
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
        self.run_in(k, items, BS, args)
    }
    /// A launch on work-groups of `local` work-items.
    fn run_in(&self, k: &str, items: usize, local: usize, args: &[Arg]) -> u64 {
        self.rt
            .launch(&self.p, k, items.div_ceil(local), local, args)
            .expect("launch")
    }
}

/// The median of a set of timings.
fn median(mut xs: Vec<u64>) -> u64 {
    xs.sort_unstable();
    xs.get(xs.len() / 2).copied().unwrap_or(0)
}

/// A generated program, compiled at -O2 and built once.
struct Generated<'a> {
    rt: &'a Runtime,
    m: Module,
    program: compiler::runtime::BuiltProgram,
    /// Launches not timed (input generation).
    skip: usize,
}

impl<'a> Generated<'a> {
    fn new(rt: &'a Runtime, src: &str, skip: usize, block: usize) -> Result<Generated<'a>, String> {
        let p =
            load_program(&[("bench.fcl".into(), src.to_string())]).map_err(|e| format!("{e:?}"))?;
        let m = compile_fcl_for_device(&p.main, OptLevel::O2, block, &rt.device)
            .map_err(|e| e.to_string())?;
        if std::env::args().any(|a| a == "--show") {
            eprintln!("{}", compiler::kir::emit::emit_module(&m));
        }
        check_local_memory(&m, rt).map_err(|e| e.to_string())?;
        let program = rt
            .build(&compiler::kir::emit::emit_module(&m))
            .map_err(|e| e.to_string())?;
        Ok(Generated {
            rt,
            m,
            program,
            skip,
        })
    }
    /// Device time of one run of the plan, without the first `skip` launches.
    fn run(&self) -> Result<u64, String> {
        let r = execute_built(&self.m, self.rt, &self.program).map_err(|e| e.to_string())?;
        Ok(r.launches.iter().skip(self.skip).map(|(_, ns)| ns).sum())
    }
}

/// One benchmark: a hand-written run, the FCL program, the target ratio (none: for information)
/// and whether it moves data (its bandwidth is compared with a plain copy's).
struct Case<'a> {
    name: &'static str,
    hand: Box<dyn FnMut() -> u64 + 'a>,
    src: String,
    skip: usize,
    target: Option<f64>,
    moves_data: bool,
    /// The work-group size the program is compiled for.
    block: usize,
}

fn example_defs(name: &str) -> String {
    // the build's own tree, else `examples/` under the working directory (a binary carried to
    // another machine, scripts/gpu-check, finds no build tree there)
    let file = format!("examples/fcl/{name}.fcl");
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(&file),
    )
    .or_else(|_| std::fs::read_to_string(&file))
    .expect("example");
    src[..src.find("sig main").unwrap_or(src.len())].to_string()
}

/// The scan example with its blocks scanned by Hillis-Steele steps, the hand kernel's algorithm,
/// instead of Sklansky's: step `i` adds the element `2^i` places back, where there is one.
fn hillis_steele(scan: &str) -> String {
    const STEPS: &str = "
sig hillisSteeleStep : forall 'a. int -> ('a -> 'a -> 'a) -> ['a] -> ['a]
fun hillisSteeleStep i op a =
  generate (lengthPull a)
    (fn j => if lti j (1 << i) then index a j else op (index a (j - (1 << i))) (index a j))

sig hillisSteele : forall 'a. int -> ('a -> 'a -> 'a) -> ['a] -> Program <block> ['a]<block>
fun hillisSteele lgn op arr =
  do<block>
  { r <- power<block> lgn
           (fn i => fn a => return<block> (push<block> (hillisSteeleStep i op a)))
           (return<block> (push<block> arr))
  ; return<block> (push<block> r)
  }

";
    let at = scan
        .find("sig scanChunked")
        .expect("the scan example defines scanChunked");
    let body = scan[at..].replace("(sklansky lgChunkSize op)", "(hillisSteele lgChunkSize op)");
    assert!(body.contains("hillisSteele"), "scanChunked calls sklansky");
    format!("{}{STEPS}{body}", &scan[..at])
}

/// The tiled transpose with its work-groups over the tiles of the input, in order, as the
/// hand-written kernels have them (the thesis's `transposeTiled` has them over the tiles of the
/// output): a group reads the tile after its neighbour's in the same rows of the input, which on
/// a CPU keeps those rows in cache. The tile is still forced to local memory and transposed in
/// the block; `concatGridTransposed` writes input tile `gid` (row `gid / tilesPerRow`, column
/// `gid % tilesPerRow`) to the output tile at the transposed position.
const BY_INPUT: &str = "
sig concatGridTransposed : forall <l> 'a. int -> int -> int
                    -> [Program <l> ['a]<l>]
                    -> Program <1+l> ['a]<1+l>
fun concatGridTransposed <l> splitSize tilesPerRow width arr =
  let tileSize = splitSize * splitSize in
  interleave <l> tileSize
    (fn sh =>
      let gid = fst sh in
      let tid = snd sh in
      let groupIDx = gid / tilesPerRow in
      let groupIDy = gid % tilesPerRow in
      let xIndex = groupIDx * splitSize + tid % splitSize in
      let yIndex = groupIDy * splitSize + tid / splitSize
      in yIndex * width + xIndex)
  arr

sig transposeTiledByInput : forall 'a. int -> int -> int -> ['a]
  -> Program <grid> ['a]<grid>
fun transposeTiledByInput tileDim rows cols elems =
  splitGrid tileDim cols rows elems
  |> mapPull push<block>
  |> mapPull force<block>
  |> mapPull (transposeBlock tileDim tileDim)
  |> concatGridTransposed<block> tileDim (cols / tileDim) rows
";

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
    let reps = opt("--reps", 5).max(1);
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
    let mm = opt("--matmul", 512);

    // host memcpy bandwidth
    let src = vec![1u8; n * 4];
    let mut dst = vec![0u8; n * 4];
    let t = Instant::now();
    for _ in 0..5 {
        dst.copy_from_slice(&src);
    }
    let secs = t.elapsed().as_secs_f64() / 5.0;
    let memcpy_gbs = 2.0 * (n * 4) as f64 / secs / 1e9;

    let hand = Hand {
        p: rt.build(HAND).expect("hand-written kernels build"),
        rt: &rt,
    };
    let hand = &hand;
    let a = hand.buf(n * 4);
    let b = hand.buf(n * 4);
    let sums = hand.buf(n.div_ceil(BS) * 4);
    let sums2 = hand.buf(n.div_ceil(BS * BS).max(1) * 4);
    let sums3 = hand.buf(4);
    let (a, b, sums, sums2, sums3) = (&a, &b, &sums, &sums2, &sums3);
    let ni = n as i32;
    hand.run("fill", n, &[Arg::Buffer(a), Arg::Int(ni)]);
    let ma = hand.buf(mm * mm * 8);
    let mb = hand.buf(mm * mm * 8);
    let mc = hand.buf(mm * mm * 8);
    let (ma, mb, mc) = (&ma, &mb, &mc);
    for m in [ma, mb] {
        hand.run(
            "filld",
            mm * mm,
            &[Arg::Buffer(m), Arg::Int((mm * mm) as i32)],
        );
    }

    let rev = example_defs("reverse");
    let tr = example_defs("transpose");
    let red = example_defs("reduce");
    let scan = example_defs("scan").replace("let lgChunkSize = 2 in", "let lgChunkSize = 8 in");
    let mat = example_defs("matmul");
    let sq = side as i32;
    // the tiled transpose's tile side (a work-group per tile), and whether the device takes the
    // 1024 work-items of a 32x32 tile
    let big_groups = rt.device.max_work_group_size >= 1024;
    let tile = opt("--tile", if big_groups { 32 } else { 16 });
    let transpose_with = move |k: &'static str| {
        move || {
            let args = [Arg::Buffer(a), Arg::Buffer(b), Arg::Int(sq), Arg::Int(sq)];
            hand.run(k, n, &args)
        }
    };
    // the first (untimed) call of a tiled hand run picks the fastest of the variants, the
    // others time it
    // the hand scan: blocks of 256, the blocks' totals scanned the same way, then added
    let hand_scan = move || {
        move || {
            let g1 = n.div_ceil(BS);
            let block = |from, to, total, len: usize| {
                let args = [
                    Arg::Buffer(from),
                    Arg::Buffer(to),
                    Arg::Buffer(total),
                    Arg::Int(len as i32),
                ];
                hand.run("scan_block", len, &args)
            };
            block(a, b, sums, n)
                + block(sums, sums, sums2, g1)
                + hand.run(
                    "scan_add",
                    n,
                    &[Arg::Buffer(b), Arg::Buffer(sums), Arg::Int(ni)],
                )
        }
    };
    let best_tiled = move || {
        let mut chosen: Option<usize> = None;
        move || {
            let args = [Arg::Buffer(a), Arg::Buffer(b), Arg::Int(sq), Arg::Int(sq)];
            let run = |v: usize| match v {
                0 => hand.run("transpose_tiled", n, &args),
                1 => hand.run("transpose_tiled_direct", n, &args),
                _ => hand.run_in("transpose_tiled32_direct", n, 1024, &args),
            };
            let best = *chosen.get_or_insert_with(|| {
                let variants = if big_groups { 3 } else { 2 };
                (0..variants)
                    .min_by_key(|&v| (0..3).map(|_| run(v)).min())
                    .unwrap_or(0)
            });
            run(best)
        }
    };
    let naive_src = format!(
        "{tr}{}",
        main_with(
            n,
            &format!("rp <- chunked (fn c => c) (transpose {side} {side} a); r <- force<grid> rp")
        )
    );
    // a work-item per two elements (a work-group per 512)
    let reduce_part = move || {
        hand.run(
            "reduce_part",
            n.div_ceil(2),
            &[Arg::Buffer(a), Arg::Buffer(sums), Arg::Int(ni)],
        )
    };
    let mut cases: Vec<Case> = vec![
        Case {
            name: "copy",
            hand: Box::new(move || {
                hand.run("copy", n, &[Arg::Buffer(a), Arg::Buffer(b), Arg::Int(ni)])
            }),
            src: main_with(n, "rp <- chunked (fn c => c) a; r <- force<grid> rp"),
            skip: 1,
            target: Some(0.95),
            moves_data: true,
            block: DEFAULT_BLOCK_SIZE,
        },
        Case {
            name: "reverse",
            hand: Box::new(move || {
                hand.run("reverse", n, &[Arg::Buffer(a), Arg::Buffer(b), Arg::Int(ni)])
            }),
            src: format!(
                "{rev}{}",
                main_with(n, "r <- revDistribute 256 a; s <- force<grid> r")
            ),
            skip: 1,
            target: Some(0.95),
            moves_data: true,
            block: DEFAULT_BLOCK_SIZE,
        },
        // the FCL naive transpose is a gather (each output element reads its source), so the
        // fair hand-written kernel gathers too; the scatter row (coalesced reads, scattered
        // writes) is a different algorithm, shown for information
        Case {
            name: "transpose naive",
            hand: Box::new(transpose_with("transpose_gather")),
            src: naive_src.clone(),
            skip: 1,
            target: Some(0.95),
            moves_data: true,
            block: DEFAULT_BLOCK_SIZE,
        },
        Case {
            name: "  vs scatter",
            hand: Box::new(transpose_with("transpose_naive")),
            src: naive_src,
            skip: 1,
            target: None,
            moves_data: true,
            block: DEFAULT_BLOCK_SIZE,
        },
        // the hand-written tiled transpose is the fastest of three on the device: 16x16 tiles
        // staged through local memory (best where local memory is on-chip), and 16x16 or 32x32
        // tiles read directly in transposed order (best where local memory is ordinary memory
        // and a barrier splits the work-group's loop)
        Case {
            name: "transpose tiled",
            hand: Box::new(best_tiled()),
            src: format!(
                "{tr}{BY_INPUT}{}",
                main_with(
                    n,
                    &format!(
                        "r <- transposeTiledByInput {tile} {side} {side} a; s <- force<grid> r"
                    )
                )
            ),
            skip: 1,
            target: Some(0.95),
            moves_data: true,
            block: tile * tile,
        },
        // the thesis's program as it stands: work-groups over the output's tiles, 16x16
        Case {
            name: "  thesis order",
            hand: Box::new(best_tiled()),
            src: format!(
                "{tr}{}",
                main_with(
                    n,
                    &format!("r <- transposeTiled 16 {side} {side} a; s <- force<grid> r")
                )
            ),
            skip: 1,
            target: None,
            moves_data: true,
            block: DEFAULT_BLOCK_SIZE,
        },
        Case {
            name: "reduce partial",
            hand: Box::new(reduce_part),
            src: format!(
                "{red}{}",
                main_with(n, "r <- reducePart addi a; s <- force<grid> r")
            ),
            skip: 1,
            target: Some(0.9),
            moves_data: false,
            block: DEFAULT_BLOCK_SIZE,
        },
        Case {
            name: "reduce full",
            hand: Box::new(move || {
                let mut t = reduce_part();
                let (mut len, mut from, mut to) = (n.div_ceil(2 * BS), sums, sums2);
                while len > 1 {
                    t += hand.run(
                        "reduce_part",
                        len.div_ceil(2),
                        &[Arg::Buffer(from), Arg::Buffer(to), Arg::Int(len as i32)],
                    );
                    len = len.div_ceil(2 * BS);
                    (from, to) = (to, if std::ptr::eq(to, sums2) { sums3 } else { sums2 });
                }
                t
            }),
            src: format!("{red}{}", main_with(n, "s <- reduceFull addi a")),
            skip: 1,
            target: Some(0.9),
            moves_data: false,
            block: DEFAULT_BLOCK_SIZE,
        },
        // the hand kernel's algorithm, Hillis-Steele; the example's Sklansky scan (its steps
        // read one element per group of work-items, a gather where Hillis-Steele reads a
        // shifted row) is a different algorithm, shown for information
        Case {
            name: "scan",
            hand: Box::new(hand_scan()),
            src: format!(
                "{}{}",
                hillis_steele(&scan),
                main_with(n, "r <- scan addi 0 a; s <- force<grid> r")
            ),
            skip: 1,
            target: Some(0.9),
            moves_data: false,
            block: DEFAULT_BLOCK_SIZE,
        },
        Case {
            name: "  Sklansky",
            hand: Box::new(hand_scan()),
            src: format!(
                "{scan}{}",
                main_with(n, "r <- scan addi 0 a; s <- force<grid> r")
            ),
            skip: 1,
            target: None,
            moves_data: false,
            block: DEFAULT_BLOCK_SIZE,
        },
        Case {
            name: "matmul f64",
            hand: Box::new(move || {
                let args = [
                    Arg::Buffer(ma),
                    Arg::Buffer(mb),
                    Arg::Buffer(mc),
                    Arg::Int(mm as i32),
                ];
                hand.run("matmul", mm * mm, &args)
            }),
            src: format!(
                "{mat}{INPUT}\nsig main : Program <grid> unit\nval main = do<grid>\n  {{ ap <- chunked (fn c => c) (generate {} (fn i => i2d (i % 7)))\n  ; a <- force<grid> ap\n  ; bp <- chunked (fn c => c) (generate {} (fn i => i2d (i % 7)))\n  ; b <- force<grid> bp\n  ; c <- matmulTiled addd muld 0.0 16 {mm} {mm} {mm} a b\n  ; d <- force<grid> c\n  ; return<grid> ()\n  }}\n",
                mm * mm,
                mm * mm
            ),
            skip: 2,
            target: Some(0.9),
            moves_data: false,
            block: DEFAULT_BLOCK_SIZE,
        },
    ];

    // every figure is in bytes moved per nanosecond (GB/s) of a read and a write of n ints
    let gbs = |ns: u64| 2.0 * (n * 4) as f64 / ns.max(1) as f64;
    let mut copy_hand = Vec::new();
    println!(
        "{:<18} {:>10} {:>10} {:>7} {:>7} {:>5} {:>8} {:>8} {:>8}",
        "kernel", "hand ms", "gen ms", "ratio", "target", "met", "gen GB/s", "of copy", "hand of"
    );
    // `--only WORD`: the cases whose name contains WORD (and the copy, the bandwidth reference)
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1));
    for case in &mut cases {
        if only.is_some_and(|w| case.name != "copy" && !case.name.contains(w.as_str())) {
            continue;
        }
        let gen = match Generated::new(&rt, &case.src, case.skip, case.block) {
            Ok(g) => g,
            Err(e) => {
                println!("{:<18} not compiled: {e}", case.name);
                continue;
            }
        };
        let (mut hs, mut gs) = (Vec::new(), Vec::new());
        let mut failed = None;
        // one untimed run of each first: a kernel's first launch may load or compile it
        (case.hand)();
        if let Err(e) = gen.run() {
            failed = Some(e);
        }
        for _ in 0..reps {
            hs.push((case.hand)());
            match gen.run() {
                Ok(t) => gs.push(t),
                Err(e) => failed = Some(e),
            }
        }
        if let Some(e) = failed {
            println!("{:<18} failed: {e}", case.name);
            continue;
        }
        let (h, g) = (median(hs), median(gs));
        if case.name == "copy" {
            copy_hand.push(h);
        }
        let ratio = h as f64 / g.max(1) as f64;
        let (target, met) = match case.target {
            Some(t) => (format!("{t:.2}"), if ratio >= t { "yes" } else { "NO" }),
            None => ("-".to_string(), "-"),
        };
        // the generated kernel's bandwidth as a fraction of the hand-written copy's, and the
        // hand-written kernel's (what the device allows for this access pattern)
        let (bw, of_copy, hand_of) = match (case.moves_data, copy_hand.first()) {
            (true, Some(&c)) => (
                format!("{:.2}", gbs(g)),
                format!("{:.2}", gbs(g) / gbs(c)),
                format!("{:.2}", gbs(h) / gbs(c)),
            ),
            _ => ("-".to_string(), "-".to_string(), "-".to_string()),
        };
        println!(
            "{:<18} {:>10.3} {:>10.3} {ratio:>7.2} {target:>7} {met:>5} {bw:>8} {of_copy:>8} {hand_of:>8}",
            case.name,
            h as f64 / 1e6,
            g as f64 / 1e6
        );
    }
    let copy = median(copy_hand);
    println!(
        "bandwidth: plain copy kernel (hand) {:.2} GB/s, host memcpy {memcpy_gbs:.2} GB/s ({} MiB); \
         target for copy/reverse/transpose: gen GB/s >= 0.80 of copy (hand of: the hand-written \
         kernel's fraction)",
        gbs(copy),
        (n * 4) >> 20
    );
}
