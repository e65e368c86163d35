/* server_error.h - error codes shared by the server's parts.
 *
 * Functions that can fail return 0 or one of these; the detail goes to the
 * error reporter (log.h) or into a caller's buffer.
 */
#ifndef EDDI_SERVER_ERROR_H
#define EDDI_SERVER_ERROR_H

enum {
  SERVER_OK = 0,
  SERVER_ENOMEM = -1,  /* out of memory */
  SERVER_EINVAL = -2,  /* bad argument, option or message */
  SERVER_EBUSY = -3,   /* the work queue is full */
  SERVER_ECLOSED = -4, /* the work queue no longer takes work */
  SERVER_EIO = -5,     /* a system call failed */
  SERVER_ENATS = -6,   /* nats.c refused (its status is logged) */
};

#endif
