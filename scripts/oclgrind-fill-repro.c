/* Oclgrind --uninitialized reports a value read from a buffer that was zero-filled with
   clEnqueueFillBuffer and then written whole by a kernel as uninitialized; without the fill
   (the buffer's first contents undefined) it reports nothing. Filling can only initialize
   memory, so the report is Oclgrind's error.
   cc -o /tmp/fill-repro scripts/oclgrind-fill-repro.c -lOpenCL   (Oclgrind 21.10)
   oclgrind --uninitialized /tmp/fill-repro 1   # fill first: "Uninitialized value written"
   oclgrind --uninitialized /tmp/fill-repro 0   # no fill: clean
   tailfcl therefore zero-fills by a host write on Oclgrind (Runtime::fill_zero). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
static const char *src =
    "__kernel void write_all(__global int *a) { a[get_global_id(0)] = 11; }\n"
    "__kernel void copy(__global const int *a, __global int *b) {\n"
    "  b[get_global_id(0)] = a[get_global_id(0)]; }\n";
int main(int argc, char **argv) {
  int fill = argc > 1 && atoi(argv[1]);
  size_t n = 4;
  cl_platform_id p; cl_device_id d; cl_int e;
  clGetPlatformIDs(1, &p, NULL);
  clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  clBuildProgram(prog, 1, &d, "", NULL, NULL);
  cl_kernel w = clCreateKernel(prog, "write_all", &e), k = clCreateKernel(prog, "copy", &e);
  cl_mem a = clCreateBuffer(c, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &e);
  cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &e);
  char zero = 0;
  if (fill) clEnqueueFillBuffer(q, a, &zero, 1, 0, n * sizeof(int), 0, NULL, NULL);
  clSetKernelArg(w, 0, sizeof a, &a);
  clEnqueueNDRangeKernel(q, w, 1, NULL, &n, NULL, 0, NULL, NULL);
  clSetKernelArg(k, 0, sizeof a, &a);
  clSetKernelArg(k, 1, sizeof b, &b);
  clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL);
  int out[4];
  e = clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
  printf("fill %d, status %d: %d %d %d %d\n", fill, e, out[0], out[1], out[2], out[3]);
  return 0;
}
