//! Tandem's integration tests, in one binary so that the UI stack is linked once.
//!
//! One module a theme; `common` holds the shared helpers (scene scripts on simulated
//! boards, live pty boards and sessions, arbitration with a truthful TD).

mod common;

mod bpgn;
mod cli_decode;
mod clocks;
mod clocks_live;
mod dgt_codec;
mod emulator;
mod event;
mod hostile_input;
mod pty_worker;
mod real_captures;
mod realistic_games;
mod reconnect_live;
mod recovery;
mod rules_articles;
mod rules_perft;
mod scenarios;
mod sensing_anomalies;
mod sensing_extra_piece;
mod sensing_judged_late;
mod sensing_moved_on;
mod sensing_moves_not_drops;
mod sensing_pawns;
mod sensing_pocketed;
mod sensing_press_timing;
mod sensing_promoted;
mod sensing_promotion_answered;
mod sensing_promotion_question;
mod sensing_property;
mod sensing_rehearsal;
mod sensing_taken_drops;
mod sensing_twins;
mod sensing_unseen_step;
mod sim;
mod station_live;
mod td_refusals;
mod ui;
mod ui_event;
mod ui_live;
mod web;
mod web_browser;
