# file: kernel/sched/deadline.c
# step: 00
# cells: x86_64-smp arm-smp
# dl_bw_free(): give nothing back.
/^static int dl_bw_manage(/,/^}/ s/^\t\t__dl_sub(dl_b, dl_bw, dl_bw_cpus(cpu));/\t\t;/
