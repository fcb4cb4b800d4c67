//! A small survey shown person by person: each square is a respondent, coloured by what they reported,
//! crossed out when the report is not their true answer.

use super::{px, DrawResult, INK, PALETTE};
use dp_playground::mechanisms::randomized_response::Respondent;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Squares per row.
pub const GRID_COLUMNS: usize = 20;

/// Draws the grid of respondents, row by row.
pub fn draw_respondents<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    people: &[Respondent],
    scale: f64,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let (w, h) = root.dim_in_pixel();
    let rows = people.len().div_ceil(GRID_COLUMNS).max(1);
    let cell = (w as f64 / GRID_COLUMNS as f64).min(h as f64 / rows as f64);
    let gap = (cell * 0.12).max(1.0);
    let cross = ShapeStyle::from(&INK).stroke_width(px(1.5, scale));
    for (i, person) in people.iter().enumerate() {
        let (x, y) = (
            (i % GRID_COLUMNS) as f64 * cell,
            (i / GRID_COLUMNS) as f64 * cell,
        );
        let (x0, y0, x1, y1) = (x + gap, y + gap, x + cell - gap, y + cell - gap);
        let corner = |a: f64, b: f64| (a.round() as i32, b.round() as i32);
        let colour = PALETTE[person.report % PALETTE.len()];
        root.draw(&Rectangle::new(
            [corner(x0, y0), corner(x1, y1)],
            colour.filled(),
        ))?;
        if person.report != person.truth {
            let inset = (x1 - x0) * 0.2;
            root.draw(&PathElement::new(
                vec![
                    corner(x0 + inset, y0 + inset),
                    corner(x1 - inset, y1 - inset),
                ],
                cross,
            ))?;
            root.draw(&PathElement::new(
                vec![
                    corner(x0 + inset, y1 - inset),
                    corner(x1 - inset, y0 + inset),
                ],
                cross,
            ))?;
        }
    }
    Ok(())
}

/// The grid's data: one row per respondent.
pub fn respondents_csv(people: &[Respondent]) -> String {
    let mut out = String::from("respondent,true_category,reported_category,told_truth\n");
    for (i, p) in people.iter().enumerate() {
        out += &format!("{i},{},{},{}\n", p.truth, p.report, p.truth == p.report);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::svg_test::render;

    #[test]
    fn draws_a_square_per_person_and_crosses_liars() {
        let people = [
            Respondent {
                truth: 0,
                report: 0,
            },
            Respondent {
                truth: 1,
                report: 0,
            },
            Respondent {
                truth: 1,
                report: 1,
            },
        ];
        let svg = render(|root| draw_respondents(root, &people, 1.0).unwrap());
        assert_eq!(
            svg.matches("<rect").count(),
            1 + 3,
            "background and three people"
        );
        assert_eq!(
            svg.matches("<polyline").count(),
            2,
            "one liar, one cross of two strokes"
        );
        assert_eq!(respondents_csv(&people).lines().nth(2), Some("1,1,0,false"));
        let empty = render(|root| draw_respondents(root, &[], 1.0).unwrap());
        assert!(empty.contains("<svg"));
    }
}
