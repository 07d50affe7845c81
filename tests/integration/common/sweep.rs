//! Long random sweeps, run by hand in release: they go on past failures, print each
//! failing case, then assert their count.
//!
//! `TANDEM_CASES` cases per preset (default 1000), `TANDEM_PRESET` for one preset only,
//! `TANDEM_SWEEP_SEED` to repeat a sweep exactly (to compare two versions on it; the seed
//! is printed either way).

use tandem::util::SplitMix64;

pub struct Sweep {
    cases: u64,
    only: Option<String>,
    rng: SplitMix64,
    failures: Vec<String>,
}

impl Sweep {
    pub fn from_env() -> Sweep {
        let cases = std::env::var("TANDEM_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1000);
        let base = std::env::var("TANDEM_SWEEP_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            });
        println!("sweep seed {base}");
        Sweep {
            cases,
            only: std::env::var("TANDEM_PRESET").ok(),
            rng: SplitMix64::new(base),
            failures: Vec::new(),
        }
    }

    /// Runs `one` for each case of `preset` (unless another preset was asked for): it
    /// draws its case from the random source and returns the case and its failure, if
    /// it failed. `kind` names the cases in the summary line ("matches").
    pub fn preset(
        &mut self,
        preset: &str,
        kind: &str,
        mut one: impl FnMut(&mut SplitMix64) -> Option<(String, String)>,
    ) {
        if self.only.as_deref().is_some_and(|o| o != preset) {
            return;
        }
        let started = std::time::Instant::now();
        let mut failed = 0;
        for _ in 0..self.cases {
            if let Some((case, error)) = one(&mut self.rng) {
                failed += 1;
                println!("FAILED {case}\n{error}\n");
                self.failures.push(case);
            }
        }
        println!(
            "sweep {preset}: {} {kind}, {failed} failed, {:.0} s",
            self.cases,
            started.elapsed().as_secs_f64()
        );
    }

    /// Fails the test if any case failed, listing them.
    pub fn finish(self) {
        assert!(self.failures.is_empty(), "{}", self.failures.join("\n"));
    }
}
