/* See agc_parallel.h.
 *
 * The pool: workers started on first use (as many as the thread count asks, minus the
 * caller), each waiting for a new job, spinning briefly first (a training step calls
 * loops back to back) and then asleep on a condition variable. A job is published as a
 * 64-bit ticket, (job number << 32) | next range: a worker claims a range with a
 * compare-and-swap that also checks the job number, so a worker that wakes late can
 * never claim a range of a later job with the earlier job's parameters. The caller runs
 * ranges too and returns once the last range has finished (the worker that finishes it
 * wakes the caller if it sleeps). One loop at a time: a second caller (another Python
 * thread with the GIL released) runs its loop alone. After fork() the child has no
 * workers: they are started again on its first parallel loop. */
#include "agc_parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#define MAX_WORKERS 63
#define RANGES_PER_THREAD 4            /* a few ranges each: a thread the OS delays is
                                          covered by the others (the machine is shared) */
#define WORKER_SPIN_NS 100000          /* a worker spins this long before sleeping */
#define CALLER_SPIN_NS 2000000         /* the caller waits for the last range this long */

#if defined(__x86_64__) || defined(__i386__)
#define CPU_RELAX() __builtin_ia32_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;      /* workers: a new job */
static pthread_cond_t finished = PTHREAD_COND_INITIALIZER;  /* the caller: the last range */
static pthread_once_t at_fork_once = PTHREAD_ONCE_INIT;

static atomic_int num_threads = 1;
static int started;                    /* workers running (under mu) */
static atomic_int sleeping;            /* workers waiting on `wake` */
static atomic_int caller_sleeping;     /* the caller waits on `finished` */
static atomic_int busy;                /* a job is in flight */
static atomic_uint_fast64_t ticket;    /* (job << 32) | the next range to claim */
static atomic_long ranges_left;        /* ranges of the job not finished yet */
static _Atomic int64_t blas_busy_until; /* Note [Sharing the cores with BLAS] (monotonic ns) */

/* the job in flight (written before its ticket is published) */
static agc_range_fn job_fn;
static void *job_ctx;
static ptrdiff_t job_n, job_chunk, job_ranges;
static int job_workers;                /* workers 0..job_workers-1 take part */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Claim and run ranges of job `job` until none is left. */
static void run_ranges(uint64_t job)
{
    const agc_range_fn fn = job_fn;
    void *const ctx = job_ctx;
    const ptrdiff_t n = job_n, chunk = job_chunk, ranges = job_ranges;
    uint64_t t = atomic_load(&ticket);
    for (;;) {
        if ((t >> 32) != job || (ptrdiff_t)(t & 0xffffffffu) >= ranges)
            return;
        if (!atomic_compare_exchange_weak(&ticket, &t, t + 1))
            continue;                  /* t is reloaded */
        const ptrdiff_t b = (ptrdiff_t)(t & 0xffffffffu) * chunk;
        fn(ctx, b, b + chunk < n ? b + chunk : n);
        if (atomic_fetch_sub(&ranges_left, 1) == 1 && atomic_load(&caller_sleeping)) {
            pthread_mutex_lock(&mu);
            pthread_cond_broadcast(&finished);
            pthread_mutex_unlock(&mu);
        }
        t = atomic_load(&ticket);
    }
}

static void *worker_main(void *arg)
{
    const int index = (int)(intptr_t)arg;
    uint64_t seen = atomic_load(&ticket) >> 32;
    for (;;) {
        uint64_t job = atomic_load(&ticket) >> 32;
        if (job == seen) {
            const int64_t until = now_ns() + WORKER_SPIN_NS;
            for (int i = 1; (job = atomic_load(&ticket) >> 32) == seen; i++) {
                CPU_RELAX();
                if ((i & 255) == 0 && now_ns() > until)
                    break;
            }
        }
        if (job == seen) {
            pthread_mutex_lock(&mu);
            atomic_fetch_add(&sleeping, 1);
            while ((job = atomic_load(&ticket) >> 32) == seen)
                pthread_cond_wait(&wake, &mu);
            atomic_fetch_sub(&sleeping, 1);
            pthread_mutex_unlock(&mu);
        }
        seen = job;
        if (index < job_workers)
            run_ranges(job);
    }
    return NULL;
}

static void after_fork_in_child(void)
{
    /* only the forking thread lives on: no workers, no job, fresh locks */
    pthread_mutex_init(&mu, NULL);
    pthread_cond_init(&wake, NULL);
    pthread_cond_init(&finished, NULL);
    started = 0;
    atomic_store(&sleeping, 0);
    atomic_store(&caller_sleeping, 0);
    atomic_store(&busy, 0);
}

static void register_at_fork(void)
{
    pthread_atfork(NULL, NULL, after_fork_in_child);
}

/* Start workers up to `want`; returns how many run. */
static int ensure_workers(int want)
{
    if (want > MAX_WORKERS)
        want = MAX_WORKERS;
    pthread_mutex_lock(&mu);
    if (started < want) {
        pthread_once(&at_fork_once, register_at_fork);
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        while (started < want) {
            pthread_t th;
            if (pthread_create(&th, &attr, worker_main, (void *)(intptr_t)started) != 0)
                break;                 /* fewer threads: the loops still complete */
            started++;
        }
        pthread_attr_destroy(&attr);
    }
    const int have = started;
    pthread_mutex_unlock(&mu);
    return have;
}

void agc_parallel_for(ptrdiff_t n, ptrdiff_t grain, agc_range_fn fn, void *ctx)
{
    if (n <= 0)
        return;
    if (grain < 1)
        grain = 1;
    const int threads = atomic_load_explicit(&num_threads, memory_order_relaxed);
    if (threads <= 1 || n <= grain
            || now_ns() < atomic_load_explicit(&blas_busy_until, memory_order_relaxed)
            || atomic_exchange(&busy, 1)) {
        fn(ctx, 0, n);
        return;
    }
    int workers = ensure_workers(threads - 1);
    ptrdiff_t ranges = (n + grain - 1) / grain;
    if (ranges > (ptrdiff_t)(workers + 1) * RANGES_PER_THREAD)
        ranges = (ptrdiff_t)(workers + 1) * RANGES_PER_THREAD;
    if (workers == 0 || ranges <= 1) {
        atomic_store(&busy, 0);
        fn(ctx, 0, n);
        return;
    }
    const ptrdiff_t chunk = (n + ranges - 1) / ranges;
    job_fn = fn;
    job_ctx = ctx;
    job_n = n;
    job_chunk = chunk;
    job_ranges = (n + chunk - 1) / chunk;
    job_workers = workers;
    atomic_store(&ranges_left, job_ranges);
    const uint64_t job = ((atomic_load(&ticket) >> 32) + 1) & 0xffffffffu;
    atomic_store(&ticket, job << 32);              /* publishes the job */
    if (atomic_load(&sleeping)) {
        pthread_mutex_lock(&mu);
        pthread_cond_broadcast(&wake);
        pthread_mutex_unlock(&mu);
    }
    run_ranges(job);
    if (atomic_load(&ranges_left)) {
        const int64_t until = now_ns() + CALLER_SPIN_NS;
        for (int i = 1; atomic_load(&ranges_left); i++) {
            CPU_RELAX();
            if ((i & 255) == 0 && now_ns() > until)
                break;
        }
        if (atomic_load(&ranges_left)) {
            pthread_mutex_lock(&mu);
            atomic_store(&caller_sleeping, 1);
            while (atomic_load(&ranges_left))
                pthread_cond_wait(&finished, &mu);
            atomic_store(&caller_sleeping, 0);
            pthread_mutex_unlock(&mu);
        }
    }
    atomic_store(&busy, 0);
}

void agc_parallel_blas_called(double multiply_adds)
{
    if (multiply_adds < AGC_BLAS_THREADED_MADDS)
        return;
    atomic_store_explicit(&blas_busy_until, now_ns() + AGC_BLAS_WINDOW_NS, memory_order_relaxed);
}

void agc_set_num_threads(int n)
{
    atomic_store(&num_threads, n < 1 ? 1 : n);
}

int agc_get_num_threads(void)
{
    return atomic_load(&num_threads);
}
