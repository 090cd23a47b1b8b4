//! The chart of a game: the evaluation over the moves (with an engine) above, both clocks
//! below (or, without a clock, each move's thinking time), as SVG drawn by plotters.

use plotters::prelude::*;
use shakmaty::Color as Side;

use crate::report::GameReport;

/// The chart's size in pixels.
const WIDTH: u32 = 960;
const HEIGHT: u32 = 540;

/// The evaluation's bound on the chart, in pawns.
const EVAL_BOUND: f64 = 10.0;

/// The light and dark of the two sides' lines.
const WHITE_LINE: RGBColor = RGBColor(0xc8, 0x8a, 0x1e);
const BLACK_LINE: RGBColor = RGBColor(0x2b, 0x6c, 0xb0);
const EVAL_LINE: RGBColor = RGBColor(0x33, 0x33, 0x33);

/// Why a chart could not be drawn (plotters' error, in words).
#[derive(Debug, thiserror::Error)]
#[error("the chart could not be drawn: {0}")]
pub struct ChartError(String);

fn drawing<E: std::fmt::Debug>(error: E) -> ChartError {
    ChartError(format!("{error:?}"))
}

/// The chart of `report`'s game, as an SVG document.
pub fn chart_svg(report: &GameReport) -> Result<String, ChartError> {
    let mut svg = String::new();
    // Without an engine's evaluations, the times alone.
    let judged = report.evals.iter().any(Option::is_some);
    let height = if judged { HEIGHT } else { HEIGHT / 2 };
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        if judged {
            let (top, bottom) = root.split_vertically(HEIGHT / 2);
            eval_panel(report, &top)?;
            time_panel(report, &bottom)?;
        } else {
            time_panel(report, &root)?;
        }
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// The plies on the x axis: 0 (the start) to the last move.
fn plies(report: &GameReport) -> f64 {
    let plies = u32::try_from(report.facts.moves.len()).unwrap_or(u32::MAX);
    f64::from(plies.max(1))
}

/// The grid: plies as whole numbers on the x axis.
fn mesh(
    chart: &mut ChartContext<
        '_,
        SVGBackend<'_>,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    report: &GameReport,
) -> Result<(), ChartError> {
    let plies = plies(report);
    // At most 12 labels, each on a whole ply.
    let labels = (plies as usize).clamp(1, 12) + 1;
    chart
        .configure_mesh()
        .x_desc("ply")
        .x_labels(labels)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(drawing)
}

fn eval_panel(
    report: &GameReport,
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
) -> Result<(), ChartError> {
    let engine = report.engine.as_deref().unwrap_or("an engine");
    let caption = format!("Evaluation (pawns, White's side; {engine})");
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(8)
        .x_label_area_size(28)
        .y_label_area_size(44)
        .build_cartesian_2d(0.0..plies(report), -EVAL_BOUND..EVAL_BOUND)
        .map_err(drawing)?;
    mesh(&mut chart, report)?;
    chart
        .draw_series(LineSeries::new(
            [(0.0, 0.0), (plies(report), 0.0)],
            BLACK.mix(0.3),
        ))
        .map_err(drawing)?;
    let points: Vec<(f64, f64)> = report
        .evals
        .iter()
        .enumerate()
        .filter_map(|(ply, eval)| {
            let pawns = f64::from(eval.as_ref()?.eval.capped_cp()) / 100.0;
            Some((
                f64::from(u32::try_from(ply).ok()?),
                pawns.clamp(-EVAL_BOUND, EVAL_BOUND),
            ))
        })
        .collect();
    chart
        .draw_series(
            AreaSeries::new(points.iter().copied(), 0.0, EVAL_LINE.mix(0.15))
                .border_style(EVAL_LINE.stroke_width(2)),
        )
        .map_err(drawing)?;
    Ok(())
}

fn time_panel(
    report: &GameReport,
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
) -> Result<(), ChartError> {
    let moves = &report.facts.moves;
    let clocked = moves.iter().any(|m| m.clock.is_some());
    // Minutes on each side's clock after each move, or each move's thinking time in seconds.
    let series = |side: Side| -> Vec<(f64, f64)> {
        moves
            .iter()
            .filter_map(|m| {
                let ply = f64::from(m.ply);
                if clocked {
                    Some((ply, m.clock?.get(side) as f64 / 60_000.0))
                } else if m.color == side {
                    Some((ply, m.think_ms? as f64 / 1000.0))
                } else {
                    None
                }
            })
            .collect()
    };
    let (white, black) = (series(Side::White), series(Side::Black));
    let top = white
        .iter()
        .chain(&black)
        .map(|(_, y)| *y)
        .fold(1.0, f64::max)
        * 1.1;
    let caption = if clocked {
        "Clocks (minutes left)"
    } else {
        "Thinking time (seconds a move)"
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(8)
        .x_label_area_size(28)
        .y_label_area_size(44)
        .build_cartesian_2d(0.0..plies(report), 0.0..top)
        .map_err(drawing)?;
    mesh(&mut chart, report)?;
    for (points, color, name) in [(white, WHITE_LINE, "White"), (black, BLACK_LINE, "Black")] {
        let dots = points
            .iter()
            .map(|point| Circle::new(*point, 3, color.filled()));
        chart.draw_series(dots).map_err(drawing)?;
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(drawing)?
            .label(name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK.mix(0.3))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(drawing)?;
    Ok(())
}
