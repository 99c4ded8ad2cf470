/* What bench/bulk.c and bench/wsload.c share: the monotonic clock, the
 * error and latency tallies, and the JSON summary line bench/lua/summary.lua
 * prints for wrk ("BATON-WRK-JSON {...}"), which the harness reads. */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static struct {
  long long requests, bytes, connect, read, write, status, timeout;
} totals;
static int64_t *latencies;
static size_t latency_count, latency_capacity;

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void record(int64_t us) {
  if (latency_count == latency_capacity) {
    latency_capacity = latency_capacity ? latency_capacity * 2 : 65536;
    latencies = realloc(latencies, latency_capacity * sizeof *latencies);
    if (!latencies) exit(2);
  }
  latencies[latency_count++] = us;
}

static int compare_latency(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static long long percentile(double p) {
  if (latency_count == 0) return 0;
  size_t i = (size_t)(p / 100.0 * (double)latency_count);
  if (i >= latency_count) i = latency_count - 1;
  return latencies[i];
}

/* Sorts the latencies and prints the summary line for a run of `elapsed_us`. */
static void print_summary(int64_t elapsed_us) {
  qsort(latencies, latency_count, sizeof *latencies, compare_latency);
  double sum = 0;
  for (size_t i = 0; i < latency_count; ++i) sum += (double)latencies[i];
  printf("BATON-WRK-JSON {\"requests\": %lld, \"duration_us\": %lld, \"bytes\": %lld, \"errors\": {\"connect\": %lld, "
         "\"read\": %lld, \"write\": %lld, \"status\": %lld, \"timeout\": %lld}, \"latency_us\": {\"p50\": %lld, "
         "\"p90\": %lld, \"p99\": %lld, \"p999\": %lld, \"max\": %lld, \"mean\": %.1f}}\n",
         totals.requests, (long long)elapsed_us, totals.bytes, totals.connect, totals.read, totals.write,
         totals.status, totals.timeout, percentile(50), percentile(90), percentile(99), percentile(99.9),
         latency_count ? (long long)latencies[latency_count - 1] : 0LL,
         latency_count ? sum / (double)latency_count : 0.0);
}
