/* Oclgrind --uninitialized keeps the shadow state of a freed buffer for the next buffer that
   gets its number. Buffer `old` (2 ints) is written and released; `a` (8 ints) takes its
   number and a kernel writes all of it; a copy of `a` is then reported as reading
   uninitialized values, but only for a[2..7], the bytes beyond the old size (the kernel's
   writes there are lost). The other way round, a larger old buffer hides reads of a new one
   that nothing wrote (mode 2: no report, though `a` is never written). Without the old
   buffer (mode 0) it is right. The report depends only on buffer reuse, so it is Oclgrind's.
   cc -o /tmp/reuse-repro scripts/oclgrind-reuse-repro.c -lOpenCL   (Oclgrind 21.10)
   oclgrind --uninitialized /tmp/reuse-repro 1   # 6 reports: "Uninitialized value written"
   oclgrind --uninitialized /tmp/reuse-repro 0   # clean
   oclgrind --uninitialized /tmp/reuse-repro 2   # clean, yet `a` is read unwritten: 8 missed
   (with no old buffer, reading `a` unwritten gives those 8 reports)
   tailfcl therefore frees no buffer under --uninitialized (Runtime::alloc_uninit). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
static const char *src =
    "__kernel void write_all(__global int *a) { a[get_global_id(0)] = 11; }\n"
    "__kernel void copy(__global const int *a, __global int *b) {\n"
    "  b[get_global_id(0)] = a[get_global_id(0)]; }\n";
int main(int argc, char **argv) {
  int mode = argc > 1 ? atoi(argv[1]) : 1;
  size_t n = 8, old_n = mode == 2 ? 16 : 2;
  cl_platform_id p; cl_device_id d; cl_int e;
  clGetPlatformIDs(1, &p, NULL);
  clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  clBuildProgram(prog, 1, &d, "", NULL, NULL);
  cl_kernel w = clCreateKernel(prog, "write_all", &e), k = clCreateKernel(prog, "copy", &e);
  if (mode) {
    int zeros[16] = {0};
    cl_mem old = clCreateBuffer(c, CL_MEM_READ_WRITE, old_n * sizeof(int), NULL, &e);
    clEnqueueWriteBuffer(q, old, CL_TRUE, 0, old_n * sizeof(int), zeros, 0, NULL, NULL);
    clReleaseMemObject(old);
  }
  cl_mem a = clCreateBuffer(c, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &e);
  cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &e);
  if (mode != 2) {
    clSetKernelArg(w, 0, sizeof a, &a);
    clEnqueueNDRangeKernel(q, w, 1, NULL, &n, NULL, 0, NULL, NULL);
  }
  clSetKernelArg(k, 0, sizeof a, &a);
  clSetKernelArg(k, 1, sizeof b, &b);
  clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL);
  int out[8];
  e = clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
  printf("mode %d, status %d: %d %d %d %d %d %d %d %d\n", mode, e, out[0], out[1], out[2], out[3],
         out[4], out[5], out[6], out[7]);
  return 0;
}
