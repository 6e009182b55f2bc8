# file: include/linux/sched/rt.h
# step: 22
# tiny: SCHED_CLASS_RT
# task_is_realtime() true for a SCHED_FIFO/RR policy without the class.
/^static inline bool task_is_realtime(/,/^}$/ { /^\tif (!IS_ENABLED(CONFIG_SCHED_CLASS_RT))$/,/^\t\treturn false;$/d }
