/* The argument layout of each action, shared by the reader and the writer:
 * one letter per argument, mandatory ones before '|', optional after.
 *   A, B  counts or amounts (finite, >= 0) into a, b
 *   P     a peer rank into peer;  R  a root rank into peer;  X  a rank into aux
 *   T     a tag (integer >= 0) into tag
 *   V     one count per rank (integers >= 0), appended to the count pool
 *   D, E  datatype ids into dt1, dt2
 *   x     a number SimGrid ignores, into a (then b): the request count
 *         of SMPI's "waitall N", the argument of "init 1"
 *   S, L  a location's file name (into the string pool) and line (into a) */
#ifndef TRACE_ARGS_H
#define TRACE_ARGS_H

#include "trace.h"

static const char *const trace_arg_layout[TR_NOPS] = {
    [TR_INIT] = "|x",
    [TR_FINALIZE] = "",
    [TR_COMPUTE] = "A",
    [TR_SLEEP] = "A",
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
    [TR_REDUCE] = "AB|RD",
    [TR_ALLREDUCE] = "AB|D",
    [TR_ALLTOALL] = "AB|DE",
    [TR_ALLTOALLV] = "AVBV|DE",
    [TR_GATHER] = "AB|RDE",
    [TR_GATHERV] = "AV|RDE",
    [TR_ALLGATHER] = "AB|DE",
    [TR_ALLGATHERV] = "AV|DE",
    [TR_SCATTER] = "AB|RDE",
    [TR_SCATTERV] = "VB|RDE",
    [TR_REDUCESCATTER] = "VB|D",
    [TR_COMM_SIZE] = "|x",
    [TR_COMM_SPLIT] = "|xx",
    [TR_COMM_DUP] = "|x",
};

#endif
