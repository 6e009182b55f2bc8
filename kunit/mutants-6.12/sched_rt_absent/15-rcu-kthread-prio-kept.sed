# file: kernel/rcu/tree.c
# step: 17
# tiny: SCHED_CLASS_RT
# tiny cells: arm-nort
# rcutree.kthread_prio is not limited to 0 without the class: the kernel
# keeps the 5 that arm-nort boots with, which RCU cannot give.
/^static void __init sanitize_kthread_prio(/,/^}$/ s/^\telse if (!IS_ENABLED(CONFIG_SCHED_CLASS_RT))$/\telse if (0)/
