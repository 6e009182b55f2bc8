# file: kernel/sched/deadline.c
# step: 00
# Account SCHED_FLAG_SUGOV tasks like any other.
/^int sched_dl_overflow(/,/^}/ s/if (attr->sched_flags & SCHED_FLAG_SUGOV)/if (0 \&\& (attr->sched_flags \& SCHED_FLAG_SUGOV))/
