# file: kernel/sched/rt.c
# step: 00
# sched_rt_handler(): do not update the default bandwidth.
/^static int sched_rt_handler(/,/^}/ s/^\t\tsched_rt_do_global();/\t\t;/
