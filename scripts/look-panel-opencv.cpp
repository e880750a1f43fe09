// OpenCV's pencilSketch at given settings, for scripts/look-panel only (a peer on the panel
// sheets, not product). Usage: look-panel-opencv IN OUT SIGMA_S SIGMA_R SHADE
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/photo.hpp>

int main(int argc, char **argv) {
    if (argc != 6) {
        std::fprintf(stderr, "usage: %s in out sigma_s sigma_r shade\n", argv[0]);
        return 2;
    }
    try {
        cv::Mat in = cv::imread(argv[1], cv::IMREAD_COLOR);
        if (in.empty()) throw std::runtime_error("cannot read input");
        cv::Mat grey, colour;
        cv::pencilSketch(in, grey, colour, std::atof(argv[3]), std::atof(argv[4]), std::atof(argv[5]));
        cv::imwrite(argv[2], grey);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "look-panel-opencv: %s\n", e.what());
        return 1;
    }
    return 0;
}
