//! The URL query as the app's state: read through the router into a memo, written with `replace` so
//! that moving a slider does not add a history entry per step; discrete changes (a preset, a select, a
//! list edit, a button) are `commit`ted as a new entry, so Back undoes them (the router's location
//! follows Back, and every control reads the query).

use dp_playground::link::embed::ViewOptions;
use dp_playground::link::query::Query;
use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;

/// Writes a URL into the address bar (the router's navigate): replacing the entry, or adding one.
type Writer = Box<dyn Fn(&str, bool)>;

/// The current query (reactive) and the way to change it. Provided as context by the app shell.
#[derive(Clone, Copy)]
pub struct UrlState {
    /// The decoded query string.
    pub query: Memo<Query>,
    /// How the view is shown (embedded, which controls, read-only).
    pub options: Memo<ViewOptions>,
    pathname: Memo<String>,
    write: StoredValue<Writer, LocalStorage>,
}

impl UrlState {
    /// Reads the router's location. Call once, inside the `<Router>`.
    pub fn from_router() -> Self {
        let location = use_location();
        let search = location.search;
        let query = Memo::new(move |_| Query::parse(&search.get()));
        let navigate = use_navigate();
        let write: Writer = Box::new(move |url: &str, replace: bool| {
            navigate(
                url,
                NavigateOptions {
                    resolve: false,
                    replace,
                    scroll: false,
                    ..Default::default()
                },
            )
        });
        UrlState {
            query,
            options: Memo::new(move |_| ViewOptions::from_query(&query.get())),
            pathname: location.pathname,
            write: StoredValue::new_local(write),
        }
    }

    /// Changes the query in place (replacing the history entry): `edit` gets the current query.
    /// For continuous input (sliders, typing). A locked view (`lock=1`) ignores every change.
    pub fn update(&self, edit: impl FnOnce(&mut Query)) {
        self.write_query(edit, true);
    }

    /// Changes the query as a new history entry, so Back undoes it: for discrete changes (presets,
    /// selects, list edits, buttons). A locked view ignores it too.
    pub fn commit(&self, edit: impl FnOnce(&mut Query)) {
        self.write_query(edit, false);
    }

    /// Sets one key in place ([`UrlState::update`]).
    pub fn set(&self, key: &str, value: impl Into<String>) {
        let value = value.into();
        self.update(|q| q.set(key, value));
    }

    /// Sets one key as a new history entry ([`UrlState::commit`]).
    pub fn commit_set(&self, key: &str, value: impl Into<String>) {
        let value = value.into();
        self.commit(|q| q.set(key, value));
    }

    fn write_query(&self, edit: impl FnOnce(&mut Query), replace: bool) {
        if self.options.with_untracked(|o| o.locked) {
            return;
        }
        let before = self.query.get_untracked();
        let mut query = before.clone();
        edit(&mut query);
        // No entry for a change that changes nothing (Back would seem to do nothing).
        if !replace && query == before {
            return;
        }
        let url = self.href_for(&query, self.pathname.get_untracked());
        self.write.with_value(|write| write(&url, replace));
    }

    /// A link to the current path with the current query changed by `edit` (reactive).
    pub fn href_with(&self, edit: impl FnOnce(&mut Query)) -> String {
        let mut query = self.query.get();
        edit(&mut query);
        self.href_for(&query, self.pathname.get())
    }

    /// What a control shows for `key`: the link's raw text (a refused value stays visible beside its
    /// message), or `in_use()` when the link has none.
    pub fn raw_or(
        &self,
        key: &'static str,
        in_use: impl Fn() -> String + Send + Sync + 'static,
    ) -> Signal<String> {
        let query = self.query;
        Signal::derive(move || {
            query
                .with(|q| q.get(key).map(str::to_owned))
                .unwrap_or_else(&in_use)
        })
    }

    /// The `target` of a link to another lab: a new tab inside an embed, so that a course page's
    /// iframe never fills with the whole site (nav bar and all); the page itself otherwise.
    pub fn other_lab_target(
        &self,
    ) -> impl Fn() -> Option<&'static str> + Copy + Send + Sync + 'static {
        let options = self.options;
        move || options.with(|o| o.embed).then_some("_blank")
    }

    /// The page's address without its query (for share links and snippets).
    pub fn page_url(&self) -> String {
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        format!("{origin}{}", self.pathname.get())
    }

    fn href_for(&self, query: &Query, pathname: String) -> String {
        format!("{pathname}?{}", query.to_query_string())
    }
}

/// The shell's [`UrlState`].
pub fn use_url() -> UrlState {
    use_context::<UrlState>().unwrap_or_else(UrlState::from_router)
}
