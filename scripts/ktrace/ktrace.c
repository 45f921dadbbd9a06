// ktrace: a kernel timeline of any CUDA process, without Nsight Systems (not on the GPU machine).
// The CUDA driver loads this library into the process when CUDA_INJECTION64_PATH names it and calls
// InitializeInjection, which turns on CUPTI's activity records for kernels (also those replayed
// from CUDA graphs) and memsets. Each record becomes one CSV line of KTRACE_OUT (default
// ktrace.csv): kind, GPU start and end (ns), stream, graph id and node id (0 outside graphs), grid
// and block x, name (cut at 160 characters). scripts/ktrace/timeline.py reads it.
//
//   gcc -O2 -shared -fPIC -o libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -L$CUDA/lib64 -lcupti
//   CUDA_INJECTION64_PATH=$PWD/libktrace.so KTRACE_OUT=run.csv <any CUDA program>
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE* g_out;
enum { kBufferBytes = 8 << 20, kNameChars = 160 };

static void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = (uint8_t*)aligned_alloc(8, kBufferBytes);
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

static void write_name(const char* name) {
  char cut[kNameChars + 1];
  size_t n = 0;
  for (; name && name[n] && n < kNameChars; ++n) cut[n] = (name[n] == '"' || name[n] == ',') ? ' ' : name[n];
  cut[n] = 0;
  fprintf(g_out, "\"%s\"\n", cut);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t* buffer, size_t size, size_t valid) {
  (void)ctx, (void)stream, (void)size;
  CUpti_Activity* rec = NULL;
  while (g_out && cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const CUpti_ActivityKernel10* k = (const CUpti_ActivityKernel10*)rec;
      fprintf(g_out, "kernel,%llu,%llu,%u,%u,%llu,%d,%d,", (unsigned long long)k->start, (unsigned long long)k->end,
              k->streamId, k->graphId, (unsigned long long)k->graphNodeId, k->gridX, k->blockX);
      write_name(k->name);
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      const CUpti_ActivityMemset4* m = (const CUpti_ActivityMemset4*)rec;
      fprintf(g_out, "memset,%llu,%llu,%u,%u,%llu,0,0,", (unsigned long long)m->start, (unsigned long long)m->end,
              m->streamId, m->graphId, (unsigned long long)m->graphNodeId);
      fprintf(g_out, "\"memset %llu bytes\"\n", (unsigned long long)m->bytes);
    }
  }
  free(buffer);
}

static void flush_at_exit(void) {
  cuptiActivityFlushAll(1);
  if (g_out) fclose(g_out);
  g_out = NULL;
}

int InitializeInjection(void) {
  const char* path = getenv("KTRACE_OUT");
  g_out = fopen(path ? path : "ktrace.csv", "w");
  if (!g_out) return 0;
  fprintf(g_out, "kind,start_ns,end_ns,stream,graph,node,grid_x,block_x,name\n");
  if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET) != CUPTI_SUCCESS) {
    fprintf(stderr, "ktrace: CUPTI activity tracing unavailable\n");
    return 0;
  }
  atexit(flush_at_exit);
  return 1;
}
