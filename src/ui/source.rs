//! Where the UI gets the match from: a live [`Session`], or anything else that can show a
//! [`MatchView`] and take TD actions (the tests drive simulated boards in simulated time).
//! The UI reads match time only from [`MatchSource::now_ms`], never from the wall clock.

use std::path::Path;
use std::sync::Arc;

use crate::Millis;
use crate::arbiter::TdAction;
use crate::arbiter::spectator::SpectatorView;
use crate::arbiter::view::MatchView;
use crate::rules::RulesPreset;
use crate::station::Session;

/// A match the console and projector can show and the TD can act on.
pub trait MatchSource {
    /// The match now.
    fn view(&self) -> Arc<MatchView>;
    /// What the hall may see, `delay_ms` behind live (the projector's broadcast delay).
    fn hall_view(&self, delay_ms: Millis) -> Arc<SpectatorView>;
    /// A TD decision.
    fn td(&self, action: TdAction);
    /// Match time now.
    fn now_ms(&self) -> Millis;
    /// Something the TD must know (the journal cannot be written, ...).
    fn problem(&self) -> Option<String>;
    /// The folder holding the match's journal and capture, if it has one.
    fn dir(&self) -> Option<&Path>;
    fn rules(&self) -> &RulesPreset;
    /// The event name, for titles and the BPGN.
    fn event(&self) -> &str;
    /// The match as BPGN, as it stands.
    fn bpgn(&self) -> String;
    /// Stops the match; `close` marks it finished (not offered for resumption).
    fn stop(self: Box<Self>, close: bool);
    /// A clock press on Tandem's own clock, now (a key in the window standing in for a
    /// clock button). Sources without Tandem's clocks ignore it.
    fn press(&self, _seat: crate::rules::Seat) {}

    /// The live session, when it is one (the web page follows it).
    fn session(&self) -> Option<&Session> {
        None
    }
}

impl MatchSource for Session {
    fn view(&self) -> Arc<MatchView> {
        Session::view(self)
    }

    fn hall_view(&self, delay_ms: Millis) -> Arc<SpectatorView> {
        Session::hall_view(self, delay_ms)
    }

    fn td(&self, action: TdAction) {
        Session::td(self, action);
    }

    fn now_ms(&self) -> Millis {
        Session::now_ms(self)
    }

    fn problem(&self) -> Option<String> {
        Session::problem(self)
    }

    fn dir(&self) -> Option<&Path> {
        Some(Session::dir(self))
    }

    fn rules(&self) -> &RulesPreset {
        &self.header().config.rules
    }

    fn event(&self) -> &str {
        &self.header().event
    }

    fn bpgn(&self) -> String {
        Session::bpgn(self).to_string()
    }

    fn stop(self: Box<Self>, close: bool) {
        Session::stop(*self, close);
    }

    fn press(&self, seat: crate::rules::Seat) {
        Session::press(self, seat);
    }

    fn session(&self) -> Option<&Session> {
        Some(self)
    }
}
