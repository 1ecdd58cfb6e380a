import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';
import { formatMoney } from '../format.ts';

// Only the parts this bar chart draws (Chart.js is tree-shaken: an unregistered controller or scale is not bundled).
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** One bar series: a location and its figure per day (cents), in the order of the chart's days. */
export interface ChartSeries {
  label: string;
  values: number[];
}

/** Colours told apart with the common colour-vision deficiencies (Okabe and Ito's palette), then repeated. */
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

/**
 * A grouped bar chart of money per day and location, drawn on a canvas that is an image to assistive technology
 * (`role="img"` and its label): the same figures are in the table beside it, which is what a screen reader reads.
 * Loaded lazily (React.lazy in Home.tsx), so Chart.js is not in the console's first load.
 */
export default function HomeChart({ label, days, series }: { label: string; days: string[]; series: ChartSeries[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: days,
        datasets: series.map((entry, index) => ({
          label: entry.label,
          data: entry.values.map((cents) => cents / 100),
          backgroundColor: COLOURS[index % COLOURS.length],
        })),
      },
      options: {
        // No animation: nothing moves for people who asked for less motion, and the chart is final when drawn.
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: { y: { beginAtZero: true, ticks: { callback: (value) => formatMoney(Number(value) * 100) } } },
        plugins: {
          legend: { position: 'bottom' },
          tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${formatMoney(Math.round(Number(item.raw) * 100))}` } },
        },
      },
    });
    return () => chart.destroy();
  }, [days, series]);

  return (
    <div className="chart">
      <canvas ref={canvas} role="img" aria-label={label}>
        {label}
      </canvas>
    </div>
  );
}
