/*
 * TwoPhase (tlaplus/Examples specifications/transaction_commit/TwoPhase.tla) in Promela, for
 * measuring kubecheck's plain TwoPhase model against SPIN side by side (bench/spin/run.sh).
 * One process whose loop takes one atomic branch per TLA+ action instance, so SPIN's
 * "states, stored" is the number of distinct valuations: 288 for N=3, 8,832 for N=5, 1,745,408
 * for N=8 (TLC's counts). Arrays have room for 8 resource managers; those past N stay unused.
 */
#ifndef N
#define N 3
#endif
#define WORKING 0
#define PREPARED 1
#define COMMITTED 2
#define ABORTED 3
#define TM_INIT 0
#define TM_COMMITTED 1
#define TM_ABORTED 2

byte rmState[8];
byte tmState = TM_INIT;
bool tmPrepared[8];
bool msgPrepared[8];
bool msgCommit = false;
bool msgAbort = false;

#define PREP(k) (k >= N || tmPrepared[k])
#define RM(k) \
  :: atomic { k < N && tmState == TM_INIT && msgPrepared[k] && !tmPrepared[k] -> tmPrepared[k] = true } \
  :: atomic { k < N && rmState[k] == WORKING -> rmState[k] = PREPARED; msgPrepared[k] = true } \
  :: atomic { k < N && rmState[k] == WORKING -> rmState[k] = ABORTED } \
  :: atomic { k < N && msgCommit && rmState[k] != COMMITTED -> rmState[k] = COMMITTED } \
  :: atomic { k < N && msgAbort && rmState[k] != ABORTED -> rmState[k] = ABORTED }

active proctype TwoPhase() {
end:
  do
  :: atomic { tmState == TM_INIT && PREP(0) && PREP(1) && PREP(2) && PREP(3) && PREP(4) && PREP(5) && PREP(6) && PREP(7) -> tmState = TM_COMMITTED; msgCommit = true }
  :: atomic { tmState == TM_INIT -> tmState = TM_ABORTED; msgAbort = true }
  RM(0) RM(1) RM(2) RM(3) RM(4) RM(5) RM(6) RM(7)
  od
}
