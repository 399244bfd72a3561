import { RadarChart as EchartsRadar } from 'echarts/charts';
import { LegendComponent, RadarComponent, TooltipComponent } from 'echarts/components';
import { type ECharts, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { RadarChartProps } from './radar-chart-types';

use([EchartsRadar, RadarComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

/** The echarts implementation; only ever loaded through the lazy `RadarChart`. */
export default function RadarChartCanvas({ indicators, series, height = 320 }: RadarChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<ECharts | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = init(container, undefined, { renderer: 'canvas' });
    chartRef.current = chart;
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(container);
    return () => {
      observer.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
  }, []);

  useEffect(() => {
    chartRef.current?.setOption(
      {
        tooltip: { trigger: 'item' },
        legend: { bottom: 0, data: series.map((item) => item.name) },
        radar: { indicator: indicators.map(({ name, max }) => ({ name, max })) },
        series: [{ type: 'radar', data: series.map((item) => ({ name: item.name, value: item.values })) }],
      },
      { notMerge: true },
    );
  }, [indicators, series]);

  return <div ref={containerRef} style={{ width: '100%', height }} />;
}
