//! The MCTS tree: one arena of nodes bounded by a node budget, the proofs of
//! MCTS-Solver, and re-rooting at a descendant so a tree serves the next move.

use std::mem::size_of;
use std::ops::Range;

use board_core::Player;

/// What is proven about a node's position, from the side of the player who
/// moved into it, with the distance to the end in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Proof {
    Unknown,
    Win(u16),
    Loss(u16),
    Draw,
}

impl Proof {
    /// The proof of a finished game for `mover`: distance 0.
    pub(super) fn of_end(winner: Option<Player>, mover: Player) -> Self {
        match winner {
            None => Proof::Draw,
            Some(w) if w == mover => Proof::Win(0),
            Some(_) => Proof::Loss(0),
        }
    }

    pub(super) fn is_known(self) -> bool {
        self != Proof::Unknown
    }
}

pub(super) struct Node<M> {
    /// The move that led here (`None` at a fresh root).
    pub(super) mv: Option<M>,
    /// The player who made that move: rewards and proofs are from their side.
    pub(super) mover: Player,
    pub(super) proof: Proof,
    /// Progressive bias: the move's priority among its siblings, 0 to 1.
    pub(super) bias: f32,
    /// Children are `first_child..first_child + child_count`; 0 (the root's
    /// index, never a child) while the node is not expanded.
    pub(super) first_child: u32,
    pub(super) child_count: u32,
    pub(super) visits: u32,
    /// Sum of rewards for `mover`, each from 0 (loss) to 1 (win).
    pub(super) reward: f64,
}

impl<M> Node<M> {
    pub(super) fn new(mv: Option<M>, mover: Player, proof: Proof, bias: f32) -> Self {
        Node { mv, mover, proof, bias, first_child: 0, child_count: 0, visits: 0, reward: 0.0 }
    }

    pub(super) fn is_expanded(&self) -> bool {
        self.first_child != 0
    }

    /// Mean reward for `mover`; exact for a proven node.
    pub(super) fn value(&self) -> f64 {
        match self.proof {
            Proof::Win(_) => 1.0,
            Proof::Loss(_) => 0.0,
            Proof::Draw => 0.5,
            Proof::Unknown if self.visits == 0 => 0.5,
            Proof::Unknown => self.reward / f64::from(self.visits),
        }
    }

    pub(super) fn add(&mut self, reward: f64) {
        if self.visits < u32::MAX {
            self.visits += 1;
            self.reward += reward;
        }
    }
}

/// The arena. Node 0 is the root; children follow their parent and siblings
/// are contiguous, so a subtree can be compacted in place.
pub(super) struct Tree<M> {
    pub(super) nodes: Vec<Node<M>>,
    budget: usize,
}

impl<M: Copy> Tree<M> {
    /// The node budget of `megabytes`: a node plus the index re-rooting
    /// needs for it.
    pub(super) fn budget_of(megabytes: usize) -> usize {
        (megabytes.saturating_mul(1 << 20) / (size_of::<Node<M>>() + size_of::<u32>())).max(2)
    }

    pub(super) fn new(budget: usize) -> Self {
        Tree { nodes: Vec::new(), budget }
    }

    pub(super) fn budget(&self) -> usize {
        self.budget
    }

    /// Changes the budget; a tree larger than the new one is forgotten.
    pub(super) fn set_budget(&mut self, budget: usize) {
        self.budget = budget;
        if self.nodes.capacity() > budget {
            self.nodes = Vec::new();
        }
    }

    pub(super) fn clear(&mut self) {
        self.nodes.clear();
    }

    pub(super) fn children(&self, node: usize) -> Range<usize> {
        let first = self.nodes[node].first_child as usize;
        first..first + self.nodes[node].child_count as usize
    }

    /// Makes room for `count` more nodes within the budget; `false` (and
    /// nothing allocated) when they would not fit.
    pub(super) fn make_room(&mut self, count: usize) -> bool {
        let needed = self.nodes.len() + count;
        if needed > self.budget {
            return false;
        }
        if needed > self.nodes.capacity() {
            let wanted = (self.nodes.capacity() * 2).clamp(needed.max(1024), self.budget);
            self.nodes.reserve_exact(wanted - self.nodes.len());
        }
        true
    }

    /// Recomputes `node`'s proof from its children; whether it is now proven.
    /// A child won by its mover (the opponent of `node`'s mover) makes
    /// `node` lost, fastest win first; all children lost makes it won, by the
    /// slowest loss; all proven with some drawn makes it a draw.
    pub(super) fn update_proof(&mut self, node: usize) -> bool {
        let mut fastest_win = None::<u16>;
        let mut slowest_loss = 0;
        let mut all_known = true;
        let mut any_draw = false;
        for child in self.children(node) {
            match self.nodes[child].proof {
                Proof::Win(d) => fastest_win = Some(fastest_win.map_or(d, |w| w.min(d))),
                Proof::Loss(d) => slowest_loss = slowest_loss.max(d),
                Proof::Draw => any_draw = true,
                Proof::Unknown => all_known = false,
            }
        }
        let proof = match fastest_win {
            Some(d) => Proof::Loss(d.saturating_add(1)),
            None if !all_known || self.nodes[node].child_count == 0 => Proof::Unknown,
            None if any_draw => Proof::Draw,
            None => Proof::Win(slowest_loss.saturating_add(1)),
        };
        self.nodes[node].proof = proof;
        proof.is_known()
    }

    /// Keeps only the subtree of `root`, which becomes node 0, compacted in
    /// place: kept nodes keep their order, so each moves down or stays.
    pub(super) fn reroot(&mut self, root: usize) {
        if root == 0 {
            return;
        }
        const DROPPED: u32 = u32::MAX;
        let mut index = vec![DROPPED; self.nodes.len()];
        index[root] = 0;
        let mut kept = 0u32;
        for n in root..self.nodes.len() {
            if index[n] == DROPPED {
                continue;
            }
            index[n] = kept;
            kept += 1;
            for child in self.children(n) {
                index[child] = 0;
            }
        }
        for n in root..self.nodes.len() {
            if index[n] == DROPPED {
                continue;
            }
            let mut node = std::mem::replace(
                &mut self.nodes[n],
                Node::new(None, Player::First, Proof::Unknown, 0.0),
            );
            if node.is_expanded() {
                node.first_child = index[node.first_child as usize];
            }
            self.nodes[index[n] as usize] = node;
        }
        self.nodes.truncate(kept as usize);
    }
}
