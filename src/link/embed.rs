//! How a view is shown, as opposed to what it computes: embedding in another page (`embed=1`), which
//! controls an embedding author shows (`controls=eps,delta`), which sections and charts (`show=`, and
//! `course=1` for the material of one lecture), and read-only views (`lock=1`). Also the snippets the
//! share panel offers: the `<iframe>` for the current view and the host page's resizer.

use crate::labs::Lab;
use crate::link::query::Query;

/// The `postMessage` type an embedded view sends its parent with its content height.
pub const HEIGHT_MESSAGE: &str = "dp-playground:height";

/// The three lines a course page adds once to let embedded views size their iframes.
pub const HOST_SCRIPT: &str = "<script>\naddEventListener('message', (e) => { if (e.data && e.data.type === 'dp-playground:height')\n  for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.style.height = e.data.height + 'px'; });\n</script>";

/// Keys that only change how a view is shown; dropped when opening the full playground.
pub const VIEW_KEYS: [&str; 5] = ["embed", "controls", "lock", "show", "course"];

/// The column width (CSS pixels) the embed snippet's height is measured for: a course page's text
/// column.
pub const COLUMN_WIDTH: u32 = 760;

/// How the link asks the view to be shown.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ViewOptions {
    /// Embedded: no site header or navigation, sized to its container.
    pub embed: bool,
    /// Only these parameter keys get controls (`None`: all of them).
    pub controls: Option<Vec<String>>,
    /// Read-only: controls are shown disabled, and nothing writes the URL.
    pub locked: bool,
    /// Only these sections and charts are shown (`None`: all but course material in an embed).
    pub show: Option<Vec<String>>,
    /// An embed keeps the course material (the lecture slides' corrections, the lecture's scenarios).
    pub course: bool,
}

impl ViewOptions {
    /// Reads `embed`, `controls` and `lock`. `1`, `true` and `yes` switch a flag on; anything else
    /// (or nothing) leaves it off. `controls=` with no keys hides every control.
    pub fn from_query(query: &Query) -> Self {
        let flag = |key| {
            query
                .get(key)
                .is_some_and(|v| matches!(v.trim(), "1" | "true" | "yes" | ""))
        };
        let list = |key| {
            query.get(key).map(|list| {
                list.split(',')
                    .map(str::trim)
                    .filter(|k| !k.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
        };
        ViewOptions {
            embed: flag("embed"),
            controls: list("controls"),
            locked: flag("lock"),
            show: list("show"),
            course: flag("course"),
        }
    }

    /// Whether the section or chart `key` is shown: the ones `show=` lists when it is there;
    /// otherwise all, but course material (`course_material`) in an embed only with `course=1`.
    pub fn shows_part(&self, key: &str, course_material: bool) -> bool {
        match &self.show {
            Some(keys) => keys.iter().any(|k| k == key),
            None => !course_material || !self.embed || self.course,
        }
    }

    /// Whether the control for `key` is shown.
    pub fn shows(&self, key: &str) -> bool {
        self.controls
            .as_ref()
            .is_none_or(|keys| keys.iter().any(|k| k == key))
    }

    /// Whether the controls panel is shown at all: not when `controls=` lists none.
    pub fn shows_controls_panel(&self) -> bool {
        self.controls.as_ref().is_none_or(|keys| !keys.is_empty())
    }
}

/// The same view in the full playground: the query without the view keys.
pub fn full_view(query: &Query) -> Query {
    let mut q = query.clone();
    for key in VIEW_KEYS {
        q.remove(key);
    }
    q
}

/// The same view for embedding: `embed=1` added, other view keys kept.
pub fn embedded_view(query: &Query) -> Query {
    query.clone().with("embed", "1")
}

/// `query` with a share panel's embed choices: `controls=` naming the `shown` keys in the order of
/// `all` (no `controls=` when every key is shown, `controls=` empty when none is), and `lock=1` when
/// `locked` (removed otherwise).
pub fn with_embed_choices(query: &Query, shown: &[String], all: &[String], locked: bool) -> Query {
    let mut q = query.clone();
    let listed: Vec<&str> = all
        .iter()
        .filter(|k| shown.contains(k))
        .map(String::as_str)
        .collect();
    if listed.len() == all.len() {
        q.remove("controls");
    } else {
        q.set("controls", listed.join(","));
    }
    if locked {
        q.set("lock", "1");
    } else {
        q.remove("lock");
    }
    q
}

/// `query` with a share panel's choice of sections and charts: `all` is every (key, whether it is
/// course material) the lab has, `shown` the ones ticked. No `show=` when the ticks are the default
/// (every part but the course material, or with `course=1`, every part); `show=` listing the ticked
/// ones otherwise.
pub fn with_part_choices(query: &Query, shown: &[String], all: &[(String, bool)]) -> Query {
    let mut q = query.clone();
    q.remove("show");
    q.remove("course");
    let ticked = |k: &String| shown.contains(k);
    let plain_ticked = all.iter().filter(|(_, c)| !c).all(|(k, _)| ticked(k));
    let course: Vec<bool> = all
        .iter()
        .filter(|(_, c)| *c)
        .map(|(k, _)| ticked(k))
        .collect();
    if plain_ticked && course.iter().all(|t| !t) {
        return q;
    }
    if plain_ticked && course.iter().all(|t| *t) {
        q.set("course", "1");
        return q;
    }
    let listed: Vec<&str> = all
        .iter()
        .filter(|(k, _)| ticked(k))
        .map(|(k, _)| k.as_str())
        .collect();
    q.set("show", listed.join(","));
    q
}

/// A sensible starting height (CSS pixels) for an embedded lab ([`crate::labs::LabInfo::embed_height`]);
/// the host script then fits it exactly.
pub fn embed_height(lab: Lab) -> u32 {
    lab.info().embed_height
}

/// The `<iframe>` snippet for `page_url` (the address without its query) and `query` (its view
/// options kept, `embed=1` added), `height` CSS pixels high (the embed's height in a
/// [`COLUMN_WIDTH`] column where the page measured it, else [`embed_height`]).
pub fn iframe_snippet(page_url: &str, query: &Query, lab: Lab, height: Option<u32>) -> String {
    let src = embed_src(page_url, query);
    format!(
        "<iframe src=\"{}\" title=\"dp-playground: {}\" width=\"100%\" height=\"{}\" style=\"border:0\" loading=\"lazy\"></iframe>",
        html_attr(&src),
        html_attr(lab.title()),
        height.unwrap_or_else(|| embed_height(lab))
    )
}

/// The address an embed of `query` loads: `page_url` (the address without its query) with the query,
/// `embed=1` added.
pub fn embed_src(page_url: &str, query: &Query) -> String {
    format!("{page_url}?{}", embedded_view(query).to_query_string())
}

/// Escapes a string for a double-quoted HTML attribute.
fn html_attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

/// A Markdown table of `rows` (name, value) under a heading row.
pub fn markdown_table(header: (&str, &str), rows: &[(String, String)]) -> String {
    let cell = |s: &str| s.replace('|', "\\|");
    let mut out = format!("| {} | {} |\n|---|---|\n", cell(header.0), cell(header.1));
    for (k, v) in rows {
        out += &format!("| {} | {} |\n", cell(k), cell(v));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embed_choices_write_controls_and_lock() {
        let all: Vec<String> = ["sigma", "q", "steps"].map(String::from).to_vec();
        let q = Query::parse("lab=dpsgd&sigma=2&controls=q&lock=1");
        let some = with_embed_choices(&q, &["steps".into(), "sigma".into()], &all, false);
        assert_eq!(
            some.to_query_string(),
            "lab=dpsgd&sigma=2&controls=sigma,steps"
        );
        let every = with_embed_choices(&q, &all, &all, true);
        assert_eq!(every.to_query_string(), "lab=dpsgd&sigma=2&lock=1");
        let none = with_embed_choices(&q, &[], &all, false);
        assert_eq!(ViewOptions::from_query(&none).controls, Some(vec![]));
    }

    #[test]
    fn parts_show_course_material_only_where_kept() {
        let all: Vec<(String, bool)> = vec![
            ("chart".into(), false),
            ("diagnostics".into(), false),
            ("slides".into(), true),
        ];
        let q = Query::parse("lab=rr&embed=1");
        let o = ViewOptions::from_query(&q);
        assert!(o.shows_part("chart", false) && !o.shows_part("slides", true));
        let full = ViewOptions::from_query(&Query::parse("lab=rr"));
        assert!(full.shows_part("slides", true));
        let kept = ViewOptions::from_query(&Query::parse("lab=rr&embed=1&course=1"));
        assert!(kept.shows_part("slides", true));
        let picked = ViewOptions::from_query(&Query::parse("lab=rr&embed=1&show=slides"));
        assert!(picked.shows_part("slides", true) && !picked.shows_part("chart", false));
        // The share panel writes the shortest link for each choice.
        let s = |v: &[&str]| v.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        let q = Query::parse("lab=rr&embed=1&show=x&course=1");
        assert_eq!(
            with_part_choices(&q, &s(&["chart", "diagnostics"]), &all).to_query_string(),
            "lab=rr&embed=1"
        );
        assert_eq!(
            with_part_choices(&q, &s(&["chart", "diagnostics", "slides"]), &all).to_query_string(),
            "lab=rr&embed=1&course=1"
        );
        assert_eq!(
            with_part_choices(&q, &s(&["slides", "chart"]), &all).to_query_string(),
            "lab=rr&embed=1&show=chart,slides"
        );
        assert_eq!(
            with_part_choices(&q, &[], &all).to_query_string(),
            "lab=rr&embed=1&show="
        );
    }

    #[test]
    fn options_parse_and_strip() {
        let q = Query::parse("lab=rr&eps=2&embed=1&controls=eps,%20k&lock=true");
        let o = ViewOptions::from_query(&q);
        assert!(o.embed && o.locked);
        assert!(o.shows("eps") && o.shows("k") && !o.shows("n"));
        assert_eq!(full_view(&q).to_query_string(), "lab=rr&eps=2");
        let none = ViewOptions::from_query(&Query::parse("controls="));
        assert!(!none.shows("eps") && !none.shows_controls_panel());
        let default = ViewOptions::from_query(&Query::parse("embed=0"));
        assert!(!default.embed && default.shows("anything") && default.shows_controls_panel());
    }

    #[test]
    fn iframe_snippet_escapes_and_embeds() {
        let q = Query::parse("lab=mechanisms&cands=a:1,b:2");
        let s = iframe_snippet("https://x.edu/dp/", &q, Lab::Mechanisms, None);
        assert!(s.starts_with("<iframe src=\"https://x.edu/dp/?lab=mechanisms&amp;cands="));
        assert!(s.contains("embed=1") && s.contains("height=\"2600\""));
        // The page's view options stay; a measured height wins.
        let q = Query::parse("lab=dpsgd&controls=sigma&lock=1");
        let s = iframe_snippet("https://x.edu/dp/", &q, Lab::Dpsgd, Some(731));
        assert!(
            s.contains("controls=sigma") && s.contains("lock=1") && s.contains("height=\"731\"")
        );
        assert!(HOST_SCRIPT.contains(HEIGHT_MESSAGE));
    }

    #[test]
    fn markdown_escapes_pipes() {
        let t = markdown_table(("a", "b"), &[("x|y".into(), "1".into())]);
        assert_eq!(t, "| a | b |\n|---|---|\n| x\\|y | 1 |\n");
    }
}
