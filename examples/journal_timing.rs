//! Developer tool: replays a journal and prints every input that took the arbiter longer
//! than a threshold (default 20 ms), to find what makes a press expensive.
//!
//! `cargo run --release --example journal_timing -- JOURNAL [THRESHOLD_MS]`
use std::time::Instant;

use tandem::arbiter::Arbiter;
use tandem::arbiter::journal::parse_journal;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        anyhow::bail!("usage: journal_timing JOURNAL [THRESHOLD_MS]");
    };
    let threshold: u128 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let j = parse_journal(&std::fs::read_to_string(path)?)
        .map_err(|e| anyhow::anyhow!("{path}:{e}"))?;
    let mut arb = Arbiter::new(j.config.clone());
    let all = Instant::now();
    let mut worst = 0;
    for (k, input) in j.inputs.iter().enumerate() {
        let t = Instant::now();
        let _ = arb.handle(input);
        let ms = t.elapsed().as_millis();
        worst = worst.max(ms);
        if ms >= threshold {
            println!("{ms:>6} ms  input {k}: {input:?}");
        }
    }
    println!(
        "{} inputs in {} ms, worst {worst} ms",
        j.inputs.len(),
        all.elapsed().as_millis()
    );
    Ok(())
}
