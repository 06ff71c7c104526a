import type { SpendingGroup } from '@portal/contract/card-spending-across';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { type ComposeOption, getInstanceByDom, init, use } from 'echarts/core';
import type { BarSeriesOption } from 'echarts/charts';
import type { GridComponentOption, TooltipComponentOption } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { formatAmount } from '../../../lib/money-format.ts';
import { spendingAnalysisText } from '../../../locales/zh-CN/spending-analysis.ts';
import styles from './spend-chart.module.css';

// only the parts drawn here: this module is the 消费分析 route's own chunk
use([BarChart, GridComponent, TooltipComponent, SVGRenderer]);

type SpendChartOption = ComposeOption<BarSeriesOption | GridComponentOption | TooltipComponentOption>;

const DAY_MS = 24 * 60 * 60_000;

/** Every day of the range, the days without spending as zero, so the axis reads as a calendar. */
export function dailySeries(from: string, to: string, groups: SpendingGroup[]): { day: string; amount: number }[] {
  const byDay = new Map(groups.map((group) => [group.key, Number(group.amount)]));
  const days: { day: string; amount: number }[] = [];
  const last = Date.parse(`${to}T00:00:00Z`);
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= last && days.length < 400; at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    days.push({ day, amount: byDay.get(day) ?? 0 });
  }
  return days;
}

/** Spend by day as bars (echarts, drawn as SVG), sized to its box and redrawn when the box or the figures change. */
export function SpendChart({ from, to, currency, groups }: { from: string; to: string; currency: string; groups: SpendingGroup[] }) {
  const box = useRef<HTMLDivElement>(null);
  const days = dailySeries(from, to, groups);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const chart = init(element, undefined, { renderer: 'svg' });
    const resize = new ResizeObserver(() => chart.resize());
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.dispose();
    };
  }, []);

  const series = JSON.stringify(days);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const chart = getInstanceByDom(element);
    if (!chart) return;
    const points = JSON.parse(series) as { day: string; amount: number }[];
    const option: SpendChartOption = {
      grid: { left: 8, right: 8, top: 16, bottom: 8, containLabel: true },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        valueFormatter: (value) => `${formatAmount(Number(value).toFixed(2))} ${currency}`,
      },
      xAxis: {
        type: 'category',
        data: points.map((point) => point.day.slice(5)),
        axisTick: { alignWithLabel: true },
        axisLabel: { color: '#8c8c8c', hideOverlap: true },
        axisLine: { lineStyle: { color: '#d9d9d9' } },
      },
      yAxis: {
        type: 'value',
        axisLabel: { color: '#8c8c8c' },
        splitLine: { lineStyle: { color: '#f0f0f0' } },
      },
      series: [
        {
          type: 'bar',
          name: spendingAnalysisText.chart.amount,
          data: points.map((point) => point.amount),
          barMaxWidth: 24,
          itemStyle: { color: '#1677ff', borderRadius: [3, 3, 0, 0] },
        },
      ],
    };
    chart.setOption(option, { notMerge: true });
  }, [series, currency]);

  return (
    <div
      ref={box}
      className={styles.chart}
      role="img"
      aria-label={spendingAnalysisText.chart.aria(from, to)}
      data-testid="spend-chart"
      data-days={days.length}
      data-spent-days={days.filter((day) => day.amount > 0).length}
    />
  );
}
