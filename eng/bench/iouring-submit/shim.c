/* liburing's idiomatic turn, one exported call: get an SQE, prep a NOP, submit and wait, reap the CQE. */
#include <liburing.h>
#include <stdlib.h>

struct io_uring *shim_create(unsigned entries)
{
    struct io_uring *ring = calloc(1, sizeof(struct io_uring));
    if (ring && io_uring_queue_init(entries, ring, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN) == 0)
        return ring;
    free(ring);
    return NULL;
}

int shim_nop(struct io_uring *ring)
{
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
    struct io_uring_cqe *cqe;
    int result;
    io_uring_prep_nop(sqe);
    sqe->user_data = 1;
    result = io_uring_submit_and_wait(ring, 1);
    if (result < 0)
        return result;
    result = io_uring_peek_cqe(ring, &cqe);
    if (result < 0)
        return result;
    result = cqe->res;
    io_uring_cqe_seen(ring, cqe);
    return result;
}

void shim_destroy(struct io_uring *ring)
{
    io_uring_queue_exit(ring);
    free(ring);
}
