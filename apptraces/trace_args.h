/* The argument layout of each action, shared by the reader, the writer and
 * the limits check: one letter per argument, mandatory ones before '|',
 * optional after (trace_values.h says what numbers each may hold).
 *   A, B  counts (message sizes, volumes) into a, b; in the datatype dt1
 *         (A) or dt2 (B)
 *   G, F  amounts (flops, seconds) into a (G), b (F)
 *   V, W  one count per rank, appended to the count pool; in dt1 (V) or
 *         dt2 (W)
 *   P     a peer rank into peer;  R  a root rank into peer;  X  a rank into aux
 *   T     a tag (integer >= 0) into tag
 *   D, E  datatype ids into dt1, dt2
 *   x     a number SimGrid ignores, into a (then b): the request count
 *         of SMPI's "waitall N", the argument of "init 1"
 *   S, L  a location's file name (into the string pool) and line (into a)
 * trace_arg_names names the arguments in the same order, comma-separated
 * (a V or W list is one name), for messages. */
#ifndef TRACE_ARGS_H
#define TRACE_ARGS_H

#include <stdio.h>
#include <string.h>

#include "trace.h"

static const char *const trace_arg_layout[TR_NOPS] = {
    [TR_INIT] = "|x",
    [TR_FINALIZE] = "",
    [TR_COMPUTE] = "G",
    [TR_SLEEP] = "G",
    [TR_LOCATION] = "SL",
    [TR_SEND] = "PTA|D",
    [TR_ISEND] = "PTA|D",
    [TR_RECV] = "PTA|D",
    [TR_IRECV] = "PTA|D",
    [TR_WAIT] = "PXT",
    [TR_TEST] = "PXT",
    [TR_WAITALL] = "|x",
    [TR_BARRIER] = "",
    [TR_BCAST] = "A|RD",
    [TR_REDUCE] = "AF|RD",
    [TR_ALLREDUCE] = "AF|D",
    [TR_ALLTOALL] = "AB|DE",
    [TR_ALLTOALLV] = "AVBW|DE",
    [TR_GATHER] = "AB|RDE",
    [TR_GATHERV] = "AW|RDE",
    [TR_ALLGATHER] = "AB|DE",
    [TR_ALLGATHERV] = "AW|DE",
    [TR_SCATTER] = "AB|RDE",
    [TR_SCATTERV] = "VB|RDE",
    [TR_REDUCESCATTER] = "VF|D",
    [TR_COMM_SIZE] = "|x",
    [TR_COMM_SPLIT] = "|xx",
    [TR_COMM_DUP] = "|x",
};

#define TR_P2P_NAMES "peer,tag,count,datatype"
#define TR_SR_NAMES  "send count,recv count"
#define TR_DT2_NAMES "send datatype,recv datatype"
static const char *const trace_arg_names[TR_NOPS] = {
    [TR_INIT] = "argument",
    [TR_FINALIZE] = "",
    [TR_COMPUTE] = "flops",
    [TR_SLEEP] = "seconds",
    [TR_LOCATION] = "file,line",
    [TR_SEND] = TR_P2P_NAMES,
    [TR_ISEND] = TR_P2P_NAMES,
    [TR_RECV] = TR_P2P_NAMES,
    [TR_IRECV] = TR_P2P_NAMES,
    [TR_WAIT] = "source,destination,tag",
    [TR_TEST] = "source,destination,tag",
    [TR_WAITALL] = "request count",
    [TR_BARRIER] = "",
    [TR_BCAST] = "count,root,datatype",
    [TR_REDUCE] = "count,flops,root,datatype",
    [TR_ALLREDUCE] = "count,flops,datatype",
    [TR_ALLTOALL] = TR_SR_NAMES "," TR_DT2_NAMES,
    [TR_ALLTOALLV] = "send buffer,send counts,recv buffer,recv counts," TR_DT2_NAMES,
    [TR_GATHER] = TR_SR_NAMES ",root," TR_DT2_NAMES,
    [TR_GATHERV] = "send count,recv counts,root," TR_DT2_NAMES,
    [TR_ALLGATHER] = TR_SR_NAMES "," TR_DT2_NAMES,
    [TR_ALLGATHERV] = "send count,recv counts," TR_DT2_NAMES,
    [TR_SCATTER] = TR_SR_NAMES ",root," TR_DT2_NAMES,
    [TR_SCATTERV] = "send counts,recv count,root," TR_DT2_NAMES,
    [TR_REDUCESCATTER] = "recv counts,flops,datatype",
    [TR_COMM_SIZE] = "size",
    [TR_COMM_SPLIT] = "color,key",
    [TR_COMM_DUP] = "argument",
};

/* The name of argument i (0-based, a count list counting as one) of op,
 * into buf. */
static inline const char *trace_arg_name(int op, int i, char *buf, int size)
{
	const char *p = trace_arg_names[op];
	for (; i > 0 && p; i--)
		if ((p = strchr(p, ',')))
			p++;
	if (!p || !*p)
		return "argument";
	const char *end = strchr(p, ',');
	int len = end ? (int)(end - p) : (int)strlen(p);
	snprintf(buf, (size_t)size, "%.*s", len, p);
	return buf;
}

#endif
