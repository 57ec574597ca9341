//! What a run did, counted by kind, for comparing the cost model with a device
//! (`tailfcl cost-check`, docs/cost-model.md): rule firings by rule and level, the cells each
//! level materialised, and the reads of materialised cells. Kept only when a [`super::Ctx`] asks
//! for it, so ordinary runs pay one branch per step.

use super::rules::{self, Rule};
use super::Fired;
use crate::fcl::value::Cells;
use std::collections::HashMap;
use std::rc::Rc;

/// Counts of a run. Levels are 0 (thread), 1 (block), 2 (grid) — the level of the location a
/// step ran at.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Leaf rule firings (group steps are counted through their parts) by rule and level.
    pub rules: HashMap<(&'static str, &'static str, u32), u64>,
    /// Array cells materialised by forces finishing at each level (5.82): a grid-level force
    /// writes global memory, a block-level one local memory, a thread-level one a thread's
    /// part of either (or private memory).
    pub cells: [u64; 3],
    /// Reads of materialised cells (an element of a forced array) that a block-level force
    /// wrote: local memory in the compiled program.
    pub local_reads: u64,
    /// Reads of other materialised cells (forced at grid or thread level): global memory, or
    /// a thread's private array.
    pub global_reads: u64,
    /// Global reads that are not unit-stride: the cell read is not the one after the cell the
    /// previous thread read at the same site (`index` expression) of the same array. Under the
    /// in-order schedule neighbouring threads read in turn, so this observes, per read, the
    /// coalescing class the semantics itself does not have (docs/cost-model.md §4).
    pub strided_reads: u64,
    /// The last read at each (site, array): thread and cell.
    last: HashMap<(usize, usize), (u32, usize)>,
    /// The arrays block-level forces materialised, by address; kept alive so that an address
    /// is never reused by another array while the run lasts.
    local: HashMap<usize, Rc<Cells>>,
}

impl Tally {
    /// Counts one step; `forced` is the length of the array it materialised, where it is a
    /// force's last step (5.82). Group steps are skipped (their parts are counted as they fire).
    pub(crate) fn record(&mut self, f: &Fired, forced: Option<&Rc<Cells>>) {
        if f.rule == rules::FORCE_PAR || f.rule == rules::INTERLEAVE_PAR {
            return;
        }
        let level = f.loc.level().map_or(0, |l| l.0.min(2));
        *self
            .rules
            .entry((f.rule.number, f.rule.name, level))
            .or_default() += 1;
        if let (true, Some(c)) = (f.rule == rules::FORCE_DONE, forced) {
            self.cells[level as usize] += c.len() as u64;
            if level == 1 {
                self.local.insert(Rc::as_ptr(c) as usize, c.clone());
            }
        }
    }

    /// Counts a read of cell `i` of `c` at `site` by `thread`.
    pub(crate) fn read(&mut self, c: &Rc<Cells>, i: usize, site: usize, thread: Option<u32>) {
        let array = Rc::as_ptr(c) as usize;
        if self.local.contains_key(&array) {
            self.local_reads += 1;
            return;
        }
        self.global_reads += 1;
        let unit = match (thread, self.last.get(&(site, array))) {
            (Some(t), Some(&(lt, li))) => {
                t != lt && (t as i64 - lt as i64) == (i as i64 - li as i64)
            }
            // a thread's first read at a site, or a read outside a thread: no neighbour to
            // compare with, counted as unit-stride
            _ => true,
        };
        if !unit {
            self.strided_reads += 1;
        }
        if let Some(t) = thread {
            self.last.insert((site, array), (t, i));
        }
    }

    /// Firings of `rule` at `level`.
    pub fn firings(&self, rule: Rule, level: u32) -> u64 {
        self.rules
            .get(&(rule.number, rule.name, level))
            .copied()
            .unwrap_or(0)
    }

    /// Arrays materialised at `level`: the forces that finish there (5.82; an `interleave`'s
    /// scatter (5.84) forces its push array first, and a permute (5.86) scatters one). At grid
    /// level each is one kernel of the compiled program (spec §8.1: one kernel per materialised
    /// grid push array); at block level each ends with a barrier.
    pub fn materialisations(&self, level: u32) -> u64 {
        self.firings(rules::FORCE_DONE, level)
    }
}
