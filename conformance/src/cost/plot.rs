//! The plot: predicted against measured kernel time, log-log, one mark per (program, size),
//! a colour and a legend entry per program, the line of perfect prediction and the 2x band;
//! a self-contained SVG (plotters' SVG backend, no fonts needed: text is placed by estimate).

use plotters::prelude::*;

/// Legend entries per column, and a column's width in pixels.
const LEGEND_ROWS: usize = 60;
const LEGEND_COLUMN: u32 = 290;

/// One mark: program, measured ms, predicted ms.
pub struct Mark<'a> {
    pub program: &'a str,
    pub measured: f64,
    pub predicted: f64,
}

/// The SVG text of the plot of `marks` (marks without a positive prediction or time are left
/// out: a log axis has no place for them).
pub fn svg(title: &str, marks: &[Mark]) -> Result<String, String> {
    let shown: Vec<&Mark> = marks
        .iter()
        .filter(|m| m.measured > 0.0 && m.predicted > 0.0)
        .collect();
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for m in &shown {
        lo = lo.min(m.measured.min(m.predicted));
        hi = hi.max(m.measured.max(m.predicted));
    }
    if shown.is_empty() {
        (lo, hi) = (1e-3, 1.0);
    }
    let (lo, hi) = (lo / 2.0, hi * 2.0);
    let mut programs: Vec<&str> = shown.iter().map(|m| m.program).collect();
    programs.dedup();
    // the legend beside the chart, in columns of LEGEND_ROWS: one entry per program
    let columns = programs.len().div_ceil(LEGEND_ROWS).max(1);
    let chart_w = 900u32;
    let mut out = String::new();
    {
        let size = (chart_w + LEGEND_COLUMN * columns as u32, 900);
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        let e = |e: &dyn std::fmt::Debug| format!("plot: {e:?}");
        root.fill(&WHITE).map_err(|x| e(&x))?;
        let (left, right) = root.split_horizontally(chart_w);
        let mut chart = ChartBuilder::on(&left)
            .caption(title, ("sans-serif", 18))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
            .map_err(|x| e(&x))?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_desc("measured kernel time (ms)")
            .y_desc("predicted time, program left out of the fit (ms)")
            .draw()
            .map_err(|x| e(&x))?;
        // perfect prediction, and the 2x band around it
        for (g, style) in [
            (1.0, BLACK.stroke_width(1)),
            (2.0, BLACK.mix(0.3).stroke_width(1)),
            (0.5, BLACK.mix(0.3).stroke_width(1)),
        ] {
            chart
                .draw_series(LineSeries::new([(lo, lo * g), (hi, hi * g)], style))
                .map_err(|x| e(&x))?;
        }
        for (i, p) in programs.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            chart
                .draw_series(
                    shown
                        .iter()
                        .filter(|m| m.program == *p)
                        .map(|m| Circle::new((m.measured, m.predicted), 5, colour.filled())),
                )
                .map_err(|x| e(&x))?;
            let x = 10 + (i / LEGEND_ROWS) as i32 * LEGEND_COLUMN as i32;
            let y = 40 + (i % LEGEND_ROWS) as i32 * 14;
            right
                .draw(&Rectangle::new(
                    [(x, y - 5), (x + 10, y + 5)],
                    colour.filled(),
                ))
                .map_err(|x| e(&x))?;
            right
                .draw(&Text::new(
                    p.to_string(),
                    (x + 16, y - 6),
                    ("sans-serif", 12),
                ))
                .map_err(|x| e(&x))?;
        }
        root.present().map_err(|x| e(&x))?;
    }
    Ok(out)
}
