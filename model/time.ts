/**
 * The tick: one quantum of real time passes. Enabled only when no urgent action is due (periodic
 * actions of live components are urgent). Every timer is relative: countdowns stop at 0 (where
 * their action is due), "time since" counters saturate just past the largest constant they are
 * compared with, so states recur. A candidate's timers run at its own clock rate, also while it
 * is paused (its wall clock goes on); a crashed process or node keeps no time.
 */
import { produce } from 'immer';
import { clusterAction, type ClusterAction, type Ctx } from './context.js';
import { conditionNoExecute, kubeletAlive, type ClusterState } from './state.js';

const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;
const down = (x: number, by: number): number => (x <= by ? 0 : r6(x - by));
const up = (x: number, by: number, cap: number): number => Math.min(cap, r6(x + by));

function tick(ctx: Ctx, s: ClusterState): ClusterState {
  const dt = ctx.tick;
  return produce(s, (d) => {
    for (let n = 0; n < s.nodes.length; n++) {
      const node = s.nodes[n];
      const dn = d.nodes[n];
      if (kubeletAlive(s, n) && node.heartbeatIn > 0) dn.heartbeatIn = down(node.heartbeatIn, dt);
      if (node.sinceHeartbeat < ctx.heartbeatCap) dn.sinceHeartbeat = up(node.sinceHeartbeat, dt, ctx.heartbeatCap);
      if (node.sinceNoExecute >= 0 && node.sinceNoExecute < ctx.noExecuteCap) dn.sinceNoExecute = up(node.sinceNoExecute, dt, ctx.noExecuteCap);
    }
    for (let e = 0; e < 2; e++) {
      const le = ctx.leaderElection[e];
      s.candidates[e].forEach((k, c) => {
        if (!k.up) return;
        const dk = d.candidates[e][c];
        const local = k.rate * dt;
        if (k.paused > 0) dk.paused = down(k.paused, dt);
        if (!ctx.leaderElectionInert) {
        if (k.retryIn > 0) dk.retryIn = down(k.retryIn, local);
        if (k.observedAge < le.leaseDuration) dk.observedAge = up(k.observedAge, local, le.leaseDuration);
        const renewCap = le.retryPeriod + le.renewDeadline;
        if (k.leader && k.renewAge < renewCap) dk.renewAge = up(k.renewAge, local, renewCap);
        }
        const ctrl = k.ctrl;
        const dc = dk.ctrl;
        if (ctrl === null || dc === null) return;
        if (ctrl.monitorIn > 0) dc.monitorIn = down(ctrl.monitorIn, local);
        if (ctrl.gcIn > 0 && !ctx.podGcInert) dc.gcIn = down(ctrl.gcIn, local);
        ctrl.zones.forEach((z, i) => {
          if (z.tokenIn > 0) dc.zones[i].tokenIn = down(z.tokenIn, local);
        });
        const probeCap = ctx.grace + ctx.tick;
        ctrl.nodes.forEach((h, i) => {
          if (h.sinceProbe < probeCap) dc.nodes[i].sinceProbe = up(h.sinceProbe, local, probeCap);
        });
        ctrl.evictions.forEach((x, i) => {
          if (x.in > 0) dc.evictions[i].in = down(x.in, local);
        });
        const quarantine = ctx.config.kubeControllerManager.podGcQuarantine;
        ctrl.gcMissing.forEach((m, i) => {
          if (m >= 0 && m < quarantine) dc.gcMissing[i] = up(m, local, quarantine);
        });
      });
    }
  });
}

export function tickAction(ctx: Ctx): ClusterAction {
  return clusterAction({
    name: 'tick',
    urgent: false,
    enabled: () => true,
    apply: (s) => tick(ctx, s),
    describe: () => ({ actor: 'clock', summary: `${ctx.tick}s pass`, to: [] }),
  });
}

/**
 * Keeps the history variable `sinceNoExecute` in step with the API after any step: 0 when a node
 * has just got an unreachable/not-ready NoExecute taint, -1 when it has none.
 */
export function syncHistory(s: ClusterState): ClusterState {
  let stale = false;
  for (let n = 0; n < s.nodes.length; n++) {
    const tainted = conditionNoExecute(s.api.nodes[n]);
    if (tainted !== s.nodes[n].sinceNoExecute >= 0) stale = true;
  }
  if (!stale) return s;
  return produce(s, (d) => {
    for (let n = 0; n < s.nodes.length; n++) {
      const tainted = conditionNoExecute(s.api.nodes[n]);
      if (tainted && s.nodes[n].sinceNoExecute < 0) d.nodes[n].sinceNoExecute = 0;
      if (!tainted && s.nodes[n].sinceNoExecute >= 0) d.nodes[n].sinceNoExecute = -1;
    }
  });
}
