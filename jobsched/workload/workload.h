/* Workloads: jobs as read from a Standard Workload Format log (all 18
 * fields kept) or generated, the cleaning and transformation options that
 * turn records into simulated jobs, and the counts that say what happened
 * to every record (nothing is dropped silently). */
#ifndef JS_WORKLOAD_H
#define JS_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../common/err.h"

/* SWF field indices (0-based; the standard numbers them 1..18). */
enum js_swf_field {
	JS_F_JOB,
	JS_F_SUBMIT,
	JS_F_WAIT,
	JS_F_RUN,
	JS_F_ALLOC_PROCS,
	JS_F_AVG_CPU,
	JS_F_USED_MEM,
	JS_F_REQ_PROCS,
	JS_F_REQ_TIME,
	JS_F_REQ_MEM,
	JS_F_STATUS,
	JS_F_USER,
	JS_F_GROUP,
	JS_F_EXE,
	JS_F_QUEUE,
	JS_F_PARTITION,
	JS_F_PRECEDING,
	JS_F_THINK,
	JS_SWF_FIELDS
};

/* Human names of the fields, for messages ("run time", ...). */
extern const char *const js_swf_field_names[JS_SWF_FIELDS];

struct js_job {
	double f[JS_SWF_FIELDS]; /* the record as read (or generated); -1 = unknown */
	uint64_t id;             /* the job number, exact (f[JS_F_JOB] rounds above 2^53) */
	uint64_t preceding;      /* field 17 exact when f[JS_F_PRECEDING] != -1 */
	double submit_s;         /* arrival in the simulation, after transformations */
	double run_s;            /* run time at reference conditions, after cleaning */
	double req_s;            /* requested time (estimate) after cleaning */
	int size;                /* nodes the job asks for in the simulation */
	uint32_t line;           /* line in the source file, 0 when generated */
	/* Which part of its job the record is: 0 for a whole job; 1..k for the
	 * SWF's partial executions (status 2-4) that share a job number with
	 * no whole-job record, in the order of their submit times (then of the
	 * file). (id, part) names one record in every output. */
	uint32_t part;
	/* Resizable jobs (seed 004; set by generators, 0 for SWF logs): the job
	 * runs `iters` equal iterations with a resize point after each. */
	uint8_t resizable; /* 1: may grow and shrink at its resize points */
	uint8_t topo;      /* sizes it may take: JS_TOPO_* */
	uint16_t iters;    /* iterations (0 or 1: none) */
	double user_prio;  /* user-assigned priority (0 = none; seed 004's platinum > 0) */
	/* Batsim workloads (batsim.c; 0 for SWF logs and generated jobs): */
	uint32_t bprof;   /* 1 + index of its profile in w->bprofiles, 0: none */
	uint32_t id_text; /* offset of the workload's id text in w->text, 0: none */
	uint8_t replayed; /* 1: its run time is its profile's replay (run_s NAN, f[JS_F_RUN] -1) */
};

/* Processor topology constraint of a resizable job (seed 004 section 4). */
enum js_topo { JS_TOPO_ARBITRARY, JS_TOPO_SQUARE, JS_TOPO_POW2 };

/* Why a record was not simulated. */
enum js_skip {
	JS_SKIP_MALFORMED,      /* --skip-bad: line not in SWF form */
	JS_SKIP_SUBMIT_UNKNOWN, /* submit time -1 */
	JS_SKIP_SIZE_UNKNOWN,   /* both processor fields -1 */
	JS_SKIP_SIZE_NONPOS,    /* size <= 0 */
	JS_SKIP_OVERSIZE,       /* larger than the machine (with oversize=skip) */
	JS_SKIP_RUN_UNKNOWN,    /* run time -1 */
	JS_SKIP_RUN_ZERO,       /* run time 0 (with --zero-runtime skip) */
	JS_SKIP_STATUS,         /* status not selected by --status */
	JS_SKIP_SELECTION,      /* outside --window / --offset / --first */
	JS_SKIP_DUPLICATE,      /* --skip-bad: job number seen on an earlier line */
	JS_SKIP_PARTIAL,        /* part (status 2-4) of a job whose whole record is kept */
	JS_SKIP_N
};
extern const char *const js_skip_names[JS_SKIP_N];

struct js_counts {
	long read; /* data lines read (records) */
	long skipped[JS_SKIP_N];
	long size_from_requested; /* size field unknown, the other one used */
	long size_clamped;        /* oversize=clamp applied */
	long req_from_run;        /* requested time -1, run time used */
	long run_clamped;         /* run time > requested time, clamped */
	long req_raised;          /* run time > requested time, request raised */
	long overrun_kept;        /* run time > requested time, kept */
	long reordered;           /* records whose submit field is below the previous record's */
	long status_undefined;    /* status outside the SWF's -1..5, kept */
	long negative_kept;       /* negative values other than -1 in fields not simulated, kept */
	long partial_shared;      /* records of partial executions sharing a job number */
	long over_max_procs;      /* records asking for more processors than MaxProcs, kept */
};

/* The statuses --status can select: bit (status + 1) for -1..5, and
 * JS_STATUS_OTHER for every status outside the SWF definition. */
#define JS_STATUS_OTHER (1u << 7)
#define JS_STATUS_ALL   0xffu

/* The header keys read as numbers. */
enum js_hkey {
	JS_H_MAX_JOBS,
	JS_H_MAX_RECORDS,
	JS_H_MAX_NODES,
	JS_H_MAX_PROCS,
	JS_H_START,
	JS_H_N
};
extern const char *const js_hkey_names[JS_H_N]; /* "MaxJobs", ... as the SWF spells them */

/* Header comment values (-1 when absent). */
struct js_swf_header {
	char version[32];
	long long max_jobs, max_records, max_nodes, max_procs, unix_start_time;
	char time_zone_string[64];
	long comment_lines;
	char **lines; /* every header comment line as read (Note, Queues, ...) */
	size_t nlines;
	/* For each numeric key: the text after its number ("(dual)"), or NULL,
	 * and the line it was read from (0 when absent). */
	char *rest[JS_H_N];
	uint32_t key_line[JS_H_N];
};

/* A profile of a Batsim workload that a job names (batsim.c). */
enum js_bprof_type { JS_BPROF_DELAY, JS_BPROF_PARALLEL_HOMOGENEOUS, JS_BPROF_SMPI };
extern const char *const js_bprof_type_names[]; /* "delay", ... as Batsim spells them */
struct js_bprofile {
	char *name;
	enum js_bprof_type type;
	double delay_s;              /* delay: the run time */
	double cpu_flops, com_bytes; /* parallel_homogeneous: per host, per ordered pair */
	char *trace; /* smpi: its index of per-rank TI files, joined to the workload's folder */
};

struct js_workload {
	struct js_job *jobs;
	size_t n, cap;
	struct js_swf_header hdr;
	struct js_counts counts;
	char source[512]; /* file name or generator specification */
	/* What the reader met outside the SWF definition and kept (header values
	 * with comments, statuses, negative values, ...): one sentence each,
	 * printed by --stats and on stderr by the tools. */
	char **notes;
	size_t nnotes;
	long notes_more; /* notes beyond JS_NOTES_MAX, counted only */
	/* Batsim workloads: the profiles its jobs name, and a pool of texts
	 * (the jobs' ids as written) that starts with a NUL (offset 0: none). */
	struct js_bprofile *bprofiles;
	size_t nbprofiles;
	char *text;
	size_t text_len;
};
#define JS_NOTES_MAX 100

/* --- reading and writing SWF (swf.c) --- */

/* Reads an SWF log, plain or gzip'ed (recognised by content), opened once
 * (a FIFO or a pipe reads as a file). With skip_bad, malformed lines are
 * counted instead of failing. The records are kept as read (f[]); call
 * js_clean() to turn them into simulated jobs. Other compressions and
 * archives, UTF-16 text and lines ending in CR only are refused by name. */
int js_swf_read(const char *path, int skip_bad, struct js_workload **out, struct cmn_err *e);

/* Parses one data line into j (f[], id, preceding); returns 0 or CMN_EINPUT
 * with the message naming the field (the caller adds file:line). Bit k of
 * *neg_fields is set where field k holds a negative value other than -1
 * that is kept (a field the simulation does not read). */
int js_swf_parse_line(char *line, struct js_job *j, unsigned *neg_fields, struct cmn_err *e);

/* Writes the workload as SWF 2.2: a header of its own, the source's header
 * lines quoted ("; > "), one line per job with the simulated submit time,
 * run time, size (nodes) and requested time, the other fields as read. */
int js_swf_write(FILE *f, const struct js_workload *w, const char *note);

struct js_workload *js_workload_new(const char *source);
int js_workload_push(struct js_workload *w, const struct js_job *j);
/* Adds a note (printf-formatted; beyond JS_NOTES_MAX only counted); 0 or
 * CMN_ENOMEM. */
int js_workload_note(struct js_workload *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void js_workload_free(struct js_workload *w);
/* Prints every note, each line starting with prefix. */
void js_workload_print_notes(FILE *f, const char *prefix, const struct js_workload *w);

/* --- Batsim JSON workloads (batsim.c) --- */

/* Reads a workload file of either format, recognised by content (after
 * gzip decompression): a Batsim JSON workload when its first non-blank byte
 * is '{', else an SWF log. The file is opened once, its first bytes kept
 * for the reader: a FIFO, a pipe or /dev/stdin reads as a file does. skip_bad applies to SWF logs;
 * with a Batsim workload it is a usage error (a JSON workload is read whole or refused). */
int js_workload_read(const char *path, int skip_bad, struct js_workload **out, struct cmn_err *e);

/* Reads a Batsim JSON workload (Batsim 4's format: nb_res, jobs with id,
 * subtime, walltime, res, profile; profiles of type delay,
 * parallel_homogeneous and smpi), plain or gzip'ed, into jobs as the SWF
 * reader makes them: submit = subtime, requested time = walltime (-1 when
 * absent or -1), both processor fields = res, run time = a delay
 * profile's delay; a job of the two other types is `replayed` (its run
 * time comes from a model that replays its profile: cosim's simgrid,
 * flit). Job numbers are the ids when every id is a non-negative decimal
 * integer (JSON integer or string, without leading zeros), else every
 * job's 1-based position; the text of each id is kept (js_job_id_text).
 * Errors: JSON syntax (FILE:LINE:COLUMN), duplicate keys, and every
 * field that is missing, of the wrong type or out of range (times beyond
 * the SWF reader's 10^12 s, a delay lost at its subtime), naming FILE,
 * jobs[INDEX] and the id; nothing is returned then. */
int js_batsim_read(const char *path, struct js_workload **out, struct cmn_err *e);

/* The job's id as its workload wrote it (a Batsim id), else its number
 * printed into buf (room for 24 bytes). */
const char *js_job_id_text(const struct js_workload *w, const struct js_job *j, char *buf);
/* The job in messages: its number, and " part P" for a part of its job
 * (`part`), so that no message names two jobs; into buf. */
#define JS_JOB_NAME_BYTES 40
const char *js_job_name(const struct js_job *j, char buf[JS_JOB_NAME_BYTES]);
/* The Batsim profile a job names, or NULL. */
const struct js_bprofile *js_job_bprofile(const struct js_workload *w, const struct js_job *j);
/* 0 when no job of w is replayed, or model_replays; else an error naming
 * the file, the first such job's id and profile, and what runs them
 * (model: what replays none, "the run-time model log", "--stats"). */
int js_workload_check_replayed(const struct js_workload *w, int model_replays, const char *model,
                               struct cmn_err *e);

/* --- cleaning and transformation (clean.c) --- */

enum js_size_field { JS_SIZE_ALLOCATED, JS_SIZE_REQUESTED };
enum js_oversize { JS_OVERSIZE_SKIP, JS_OVERSIZE_CLAMP };
/* Run time above the requested time: keep both, clamp the run time to the
 * request, or raise the request to the run time (seed 002's cleaning). */
enum js_overrun { JS_OVERRUN_KEEP, JS_OVERRUN_CLAMP, JS_OVERRUN_RAISE };

struct js_clean_opts {
	enum js_size_field size_field; /* default allocated, the other as fallback */
	enum js_oversize oversize;     /* default skip */
	int skip_zero_run;             /* default 0: keep run time 0 as 0 */
	enum js_overrun overrun;       /* run time > requested time; default keep */
	int procs_per_node;            /* default 1; 0 = MaxProcs / MaxNodes from the header */
	unsigned status_mask;          /* JS_STATUS_* bits; default JS_STATUS_ALL */
	long offset, first;            /* skip the first `offset` jobs, keep `first` (0 = all) */
	double window_from_s, window_to_s; /* submit time window [from, to); NaN = none */
	double arrival_mult;               /* submit times multiplied (seed 002), default 1 */
	double runtime_coef; /* run and requested times multiplied (seed 003), default 1 */
};

void js_clean_opts_default(struct js_clean_opts *o);

/* Turns records into simulated jobs for a machine of machine_nodes nodes:
 * applies the options, sorts by submit time (stable, then by job number)
 * and drops skipped records from w->jobs, counting each in w->counts. */
int js_clean(struct js_workload *w, const struct js_clean_opts *o, int machine_nodes,
             struct cmn_err *e);

/* Makes pct % of the jobs resizable (resizable.c): those whose hash of
 * (seed, job number) falls below pct / 100, with iters iterations and the
 * arbitrary topology. A job so chosen whose run time is not positive (0,
 * or a Batsim replay's, known only when it runs) has no iteration to
 * resize at: it stays rigid, counted in *rigid. Returns how many were
 * made resizable. */
long js_make_resizable(struct js_workload *w, double pct, int iters, unsigned long seed,
                       long *rigid);

/* The procs-per-node factor the options give for this workload's header:
 * the number given, or with auto MaxProcs / MaxNodes, an error when the
 * header lacks either or they do not divide. */
int js_clean_ppn(const struct js_workload *w, const struct js_clean_opts *o, int *ppn,
                 struct cmn_err *e);

#endif
