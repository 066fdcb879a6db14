# exit: 0
# 16 arrays: the plan space is beyond branch-and-bound's limit, the hybrid search returns the greedy plan (not proven optimal).
place tests/examples/fixtures/place/sixteen_arrays.sm_75.sass --gpu k20c --grid 128 --block 128 --arg numElem=16384 --arg numNode=20000 --array x=80000 --array y=80000 --array z=80000 --array xd=80000 --array yd=80000 --array zd=80000 --array fx=80000 --array fy=80000
