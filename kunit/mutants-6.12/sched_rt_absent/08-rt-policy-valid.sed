# file: kernel/sched/sched.h
# step: 22
# tiny: SCHED_CLASS_RT
# rt_policy() true for SCHED_FIFO/SCHED_RR without the class: valid_policy()
# lets user space's requests through.
/^static inline int rt_policy(int policy)$/,/^}$/ s/^\treturn IS_ENABLED(CONFIG_SCHED_CLASS_RT) &&$/\treturn 1 \&\&/
