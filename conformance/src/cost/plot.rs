//! The plot: predicted against measured kernel time, log-log, one mark per (program, size),
//! a colour and a legend entry per program, the line of perfect prediction and the 2x band;
//! a self-contained SVG (plotters' SVG backend, no fonts needed: text is placed by estimate).

use plotters::prelude::*;

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
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (960, 760)).into_drawing_area();
        let e = |e: &dyn std::fmt::Debug| format!("plot: {e:?}");
        root.fill(&WHITE).map_err(|x| e(&x))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
            .map_err(|x| e(&x))?;
        chart
            .configure_mesh()
            .x_desc("measured kernel time (ms)")
            .y_desc("predicted time, program left out of the fit (ms)")
            .draw()
            .map_err(|x| e(&x))?;
        for (f, style) in [
            (1.0, BLACK.stroke_width(1)),
            (2.0, BLACK.mix(0.3).stroke_width(1)),
        ] {
            for g in if f == 1.0 {
                vec![1.0]
            } else {
                vec![f, 1.0 / f]
            } {
                chart
                    .draw_series(LineSeries::new([(lo, lo * g), (hi, hi * g)], style))
                    .map_err(|x| e(&x))?;
            }
        }
        let mut programs: Vec<&str> = shown.iter().map(|m| m.program).collect();
        programs.dedup();
        for (i, p) in programs.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            chart
                .draw_series(
                    shown
                        .iter()
                        .filter(|m| m.program == *p)
                        .map(|m| Circle::new((m.measured, m.predicted), 5, colour.filled())),
                )
                .map_err(|x| e(&x))?
                .label(*p)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled())
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .border_style(BLACK)
            .background_style(WHITE.mix(0.85))
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(|x| e(&x))?;
        root.present().map_err(|x| e(&x))?;
    }
    Ok(out)
}
