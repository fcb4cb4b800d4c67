//! Exercises answered by a training run ([`dp_playground::course::AfterRun`]): the run, in the
//! training lab's workers, before the answer is checked. The run is the lab's own job at the
//! exercise's settings, so the check reads the numbers the student read.

use crate::platform::pool::{self, JobEnd};
use dp_playground::course::{AfterRun, Task};

/// The worker pool's group of the teaching view's runs.
const GROUP: &str = "teach-runs";

/// `task` ready to check: as drawn, or settled by its training run.
///
/// # Errors
/// The run's failure (a worker that could not load), in words.
pub async fn settle(mut task: Task) -> Result<Task, String> {
    let Some(run) = task.after_run.clone().filter(|_| task.needs_run()) else {
        return Ok(task);
    };
    let job = run.job().map_err(|e| e.to_string())?;
    let mut last = None;
    let ended = pool::run(GROUP, &job, |u| last = AfterRun::accuracy_in(&u).or(last)).await;
    match ended {
        Ok(()) => {}
        Err(JobEnd::Failed(e)) => return Err(e),
        Err(JobEnd::Cancelled) => return Err("the run was stopped".into()),
    }
    task.settle(last.ok_or("the run gave no accuracy")?);
    Ok(task)
}
