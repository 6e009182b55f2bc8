# file: kernel/sched/rt.c
# step: 04
# Refuse RT policies in groups that do have RT runtime instead (sched_rt_can_setscheduler()).
/^bool sched_rt_can_setscheduler(/,/^}$/ s/tg->rt_bandwidth.rt_runtime == 0 &&/tg->rt_bandwidth.rt_runtime != 0 \&\&/
