# file: kernel/sched/deadline.c
# step: 00
# dl_server_start(): set the server up (its bandwidth stays admitted) but never queue it, so fair tasks beside a spinning RT task wait for RT throttling.
/^void dl_server_start(/,/^}/ s/^\tif (!dl_se->dl_runtime || dl_se->dl_server_active)$/\tif (1 || !dl_se->dl_runtime || dl_se->dl_server_active)/
