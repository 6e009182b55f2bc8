# file: kernel/sched/deadline.c
# step: 00
# cells: x86_64-smp arm-smp
# dl_bw_check_overflow(): never report -EBUSY.
/^int dl_bw_check_overflow(/,/^}/ s/return dl_bw_manage(dl_bw_req_check_overflow, cpu, 0);/dl_bw_manage(dl_bw_req_check_overflow, cpu, 0);\n\treturn 0;/
