import type { DailyMessages } from '@hablabot/contract';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';

// Only what a stacked bar chart needs, so the chunk carries no other chart type.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

export interface ChartSeries {
  key: Exclude<keyof DailyMessages, 'day'>;
  label: string;
  color: string;
}

export interface MessagesChartProps {
  days: readonly DailyMessages[];
  series: readonly ChartSeries[];
  /** Day labels as shown under the bars. */
  formatDay: (day: string) => string;
  /** The chart's accessible name; the figures themselves are in the table beside it. */
  label: string;
}

/**
 * Messages per day as stacked bars, drawn by Chart.js on a canvas. This module is loaded only by the
 * analytics screen (React.lazy), so the chart library never reaches another route's JavaScript.
 */
export default function MessagesChart({ days, series, formatDay, label }: MessagesChartProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<Chart<'bar'> | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const chart = new Chart(canvas, {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { stacked: true, ticks: { maxRotation: 0, autoSkip: true } },
          y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, []);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.data.labels = days.map((d) => formatDay(d.day));
    chart.data.datasets = series.map((s) => ({
      label: s.label,
      data: days.map((d) => d[s.key]),
      backgroundColor: s.color,
      stack: 'messages',
    }));
    // A canvas out of the document (its screen being swapped out) has no size to draw at: Chart.js
    // would fail reading it. The data is kept; the chart draws it when the canvas is back.
    if (chart.canvas?.isConnected) chart.update();
  }, [days, series, formatDay]);

  return (
    <div className="sa-chart">
      <canvas ref={canvasRef} role="img" aria-label={label} />
    </div>
  );
}
