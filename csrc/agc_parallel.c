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
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L        /* clock_gettime under a strict -std=c11 */
#endif
#include "agc_parallel.h"

#include <stdatomic.h>
#include <stdint.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <pthread.h>
#include <time.h>
#endif

#define MAX_WORKERS 63
#define RANGES_PER_THREAD 4            /* a few ranges each: a thread the OS delays is
                                          covered by the others (the machine is shared) */
#define WORKER_SPIN_NS 100000          /* a worker spins this long before sleeping */
#define CALLER_SPIN_NS 2000000         /* the caller waits for the last range this long */

#if defined(__x86_64__) || defined(__i386__)
#define CPU_RELAX() __builtin_ia32_pause()
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <intrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

/* The few threading primitives the pool needs, on Win32 or POSIX threads. */
static void *worker_main(void *arg);
#ifdef _WIN32
typedef SRWLOCK mutex_t;
typedef CONDITION_VARIABLE cond_t;
#define MUTEX_INIT SRWLOCK_INIT
#define COND_INIT CONDITION_VARIABLE_INIT
static void mutex_lock(mutex_t *m) { AcquireSRWLockExclusive(m); }
static void mutex_unlock(mutex_t *m) { ReleaseSRWLockExclusive(m); }
static void cond_wait(cond_t *c, mutex_t *m) { SleepConditionVariableSRW(c, m, INFINITE, 0); }
static void cond_broadcast(cond_t *c) { WakeAllConditionVariable(c); }
static DWORD WINAPI worker_entry(LPVOID arg) { worker_main(arg); return 0; }
static int start_worker(int index)     /* 0 on success */
{
    HANDLE h = CreateThread(NULL, 0, worker_entry, (LPVOID)(intptr_t)index, 0, NULL);
    if (h == NULL)
        return -1;
    CloseHandle(h);                    /* detached: the worker lives on */
    return 0;
}
static void register_at_fork_once(void) {}   /* no fork() on Windows */
static int64_t now_ns(void)
{
    static LARGE_INTEGER freq;         /* fixed at boot; a racing first read writes the same */
    LARGE_INTEGER t;
    if (freq.QuadPart == 0)
        QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&t);
    return (int64_t)((double)t.QuadPart * (1e9 / (double)freq.QuadPart));
}
#else
typedef pthread_mutex_t mutex_t;
typedef pthread_cond_t cond_t;
#define MUTEX_INIT PTHREAD_MUTEX_INITIALIZER
#define COND_INIT PTHREAD_COND_INITIALIZER
static void mutex_lock(mutex_t *m) { pthread_mutex_lock(m); }
static void mutex_unlock(mutex_t *m) { pthread_mutex_unlock(m); }
static void cond_wait(cond_t *c, mutex_t *m) { pthread_cond_wait(c, m); }
static void cond_broadcast(cond_t *c) { pthread_cond_broadcast(c); }
static int start_worker(int index)     /* 0 on success */
{
    pthread_attr_t attr;
    pthread_t th;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    const int rc = pthread_create(&th, &attr, worker_main, (void *)(intptr_t)index);
    pthread_attr_destroy(&attr);
    return rc;
}
static void after_fork_in_child(void);
static void register_at_fork(void) { pthread_atfork(NULL, NULL, after_fork_in_child); }
static pthread_once_t at_fork_once = PTHREAD_ONCE_INIT;
static void register_at_fork_once(void) { pthread_once(&at_fork_once, register_at_fork); }
static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
#endif

static mutex_t mu = MUTEX_INIT;
static cond_t wake = COND_INIT;        /* workers: a new job */
static cond_t finished = COND_INIT;    /* the caller: the last range */

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
            mutex_lock(&mu);
            cond_broadcast(&finished);
            mutex_unlock(&mu);
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
            mutex_lock(&mu);
            atomic_fetch_add(&sleeping, 1);
            while ((job = atomic_load(&ticket) >> 32) == seen)
                cond_wait(&wake, &mu);
            atomic_fetch_sub(&sleeping, 1);
            mutex_unlock(&mu);
        }
        seen = job;
        if (index < job_workers)
            run_ranges(job);
    }
    return NULL;
}

#ifndef _WIN32
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
#endif

/* Start workers up to `want`; returns how many run. */
static int ensure_workers(int want)
{
    if (want > MAX_WORKERS)
        want = MAX_WORKERS;
    mutex_lock(&mu);
    if (started < want) {
        register_at_fork_once();
        while (started < want && start_worker(started) == 0)
            started++;                 /* on failure fewer threads: the loops still complete */
    }
    const int have = started;
    mutex_unlock(&mu);
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
        mutex_lock(&mu);
        cond_broadcast(&wake);
        mutex_unlock(&mu);
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
            mutex_lock(&mu);
            atomic_store(&caller_sleeping, 1);
            while (atomic_load(&ranges_left))
                cond_wait(&finished, &mu);
            atomic_store(&caller_sleeping, 0);
            mutex_unlock(&mu);
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
