import { RadarChart as EchartsRadar } from 'echarts/charts';
import { LegendComponent, RadarComponent, TooltipComponent } from 'echarts/components';
import { use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useMemo } from 'react';
import type { RadarChartProps } from './radar-chart-types';
import { useChartCanvas } from './use-chart-canvas';

use([EchartsRadar, RadarComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

/** The echarts implementation; only ever loaded through the lazy `RadarChart`. */
export default function RadarChartCanvas({ indicators, series, height = 320 }: RadarChartProps) {
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'item' },
      legend: { bottom: 0, data: series.map((item) => item.name) },
      radar: { indicator: indicators.map(({ name, max }) => ({ name, max })) },
      series: [{ type: 'radar', data: series.map((item) => ({ name: item.name, value: item.values })) }],
    }),
    [indicators, series],
  );
  const containerRef = useChartCanvas(option);
  return <div ref={containerRef} style={{ width: '100%', height }} />;
}
