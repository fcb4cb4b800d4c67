//! The course path: the order an introductory course meets the labs in (randomized response →
//! mechanisms → composition → DP-SGD → training → attacks), the papers' labs apart, and the line
//! saying what a student sees in each. The landing view, the navigation's groups and each lab's
//! "Next" link read it from here.

use super::Lab;

/// A group of labs in the navigation and on the landing view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// The core labs, in the order of an introductory course.
    Course,
    /// The labs that reproduce research papers.
    Papers,
    /// Reference pages (About, Teaching).
    Reference,
}

impl Group {
    /// The group's heading.
    pub fn title(self) -> &'static str {
        match self {
            Group::Course => "Course path",
            Group::Papers => "Papers",
            Group::Reference => "Reference",
        }
    }

    /// The group's key (for test ids).
    pub fn key(self) -> &'static str {
        match self {
            Group::Course => "course",
            Group::Papers => "papers",
            Group::Reference => "reference",
        }
    }
}

/// The navigation's groups, in order; every lab but the landing view is in exactly one.
pub const GROUPS: [(Group, &[Lab]); 3] = [
    (
        Group::Course,
        &[
            Lab::RandomizedResponse,
            Lab::Mechanisms,
            Lab::Compose,
            Lab::Dpsgd,
            Lab::Train,
            Lab::Attack,
        ],
    ),
    (
        Group::Papers,
        &[Lab::Wdp, Lab::Tangent, Lab::Mf, Lab::Images],
    ),
    (Group::Reference, &[Lab::About, Lab::Teach]),
];

impl Lab {
    /// The group this lab sits in (`None`: the landing view).
    pub fn group(self) -> Option<Group> {
        GROUPS
            .iter()
            .find(|(_, labs)| labs.contains(&self))
            .map(|(g, _)| *g)
    }

    /// The lab after this one on the course path (`None` after the last, and off the path).
    pub fn next(self) -> Option<Lab> {
        let course = GROUPS[0].1;
        let at = course.iter().position(|&l| l == self)?;
        course.get(at + 1).copied()
    }

    /// One line saying what a student sees in this lab.
    pub fn what_you_see(self) -> &'static str {
        match self {
            Lab::RandomizedResponse => {
                "Ask a sensitive question with a coin flip: see how ε trades each answer's deniability \
                 against the accuracy of the population's estimate."
            }
            Lab::Mechanisms => {
                "Add Laplace or Gaussian noise to a query: see how much noise a given ε and δ call for, \
                 and what the privacy loss of one release looks like."
            }
            Lab::Compose => {
                "Release many answers about the same people: compare how the basic, advanced, Rényi and \
                 PLD bounds add up their ε."
            }
            Lab::Dpsgd => {
                "Plan private training: see how the sampling rate, the noise multiplier σ and the number \
                 of steps set the ε an accountant certifies."
            }
            Lab::Train => {
                "Train a model with DP-SGD on real data in the page: watch its accuracy and its ε move \
                 together, step by step."
            }
            Lab::Attack => {
                "Take the attacker's side: see the most a membership-inference attack can achieve at a \
                 given ε, and audit a training run."
            }
            Lab::Wdp => {
                "Wasserstein differential privacy (Yang et al.): the paper's figures, computed in the page."
            }
            Lab::Tangent => {
                "Tangent differential privacy of the Gibbs distribution: how far a posterior moves when \
                 one record changes."
            }
            Lab::Images => {
                "DP-SGD on MNIST at full scale, in the page: Abadi et al.'s network and their published \
                 points beside this page's accuracy and its tighter ε."
            }
            Lab::Mf => {
                "Correlated noise (DP-FTRL, BandMF, BLT): how much less error a stream's prefix sums \
                 carry at the same ε when the noise is correlated across steps."
            }
            Lab::About => {
                "Every formula the playground uses, with its source, and which side each number errs on."
            }
            Lab::Teach => {
                "For instructors: every exercise the page checks, problem sets drawn for a class or for \
                 each student, and the reader for students' answer codes."
            }
            Lab::Start => "What the playground is, and where to start.",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every lab but the landing view is in exactly one group, and the path runs through the course
    /// group in order, ending at the attacks lab.
    #[test]
    fn the_groups_cover_every_lab_once_and_the_path_follows_the_course() {
        for lab in Lab::ALL {
            let n = GROUPS.iter().filter(|(_, l)| l.contains(&lab)).count();
            assert_eq!(n, usize::from(lab != Lab::Start), "{lab:?}");
            assert!(!lab.what_you_see().is_empty());
        }
        let mut at = Lab::RandomizedResponse;
        let mut path = vec![at];
        while let Some(next) = at.next() {
            path.push(next);
            at = next;
        }
        assert_eq!(path, GROUPS[0].1);
        assert_eq!(Lab::Wdp.next(), None);
        assert_eq!(Lab::Start.group(), None);
    }
}
